package conformance

import (
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"sync"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
)

// ChangeKind is the kind of a write to the server's state.
type ChangeKind uint8

// The writes a Change can make.
const (
	// ChangeAdd creates an absent object with a fresh UID.
	ChangeAdd ChangeKind = iota + 1
	// ChangeUpdate writes a new version of a present object.
	ChangeUpdate
	// ChangeDelete deletes a present object.
	ChangeDelete
	// ChangeRecreate deletes a present object and creates one under the
	// same name with a fresh UID: two log entries, two resourceVersions.
	ChangeRecreate
)

var changeNames = [...]string{ChangeAdd: "add", ChangeUpdate: "update", ChangeDelete: "delete", ChangeRecreate: "recreate"}

// String returns the change kind's name.
func (k ChangeKind) String() string {
	if int(k) < len(changeNames) && changeNames[k] != "" {
		return changeNames[k]
	}
	return fmt.Sprintf("ChangeKind(%d)", uint8(k))
}

// Change is one write to the server's state, of the object under Key
// ("namespace/name").
type Change struct {
	Kind ChangeKind
	Key  string
}

// String renders the change as kind(key).
func (c Change) String() string { return fmt.Sprintf("%s(%s)", c.Kind, c.Key) }

// logEntry is one change (or bookmark) in the server's history.
type logEntry struct {
	typ watch.EventType
	obj *corev1.ConfigMap // immutable once logged
	rv  int64
}

// Server is an honest in-memory model of an API server serving ConfigMaps:
// one state, one global resourceVersion counter, a log of every change and
// a compaction horizon below which watches can no longer resume.
//
// All methods are safe for concurrent use. Objects handed to clients are
// deep copies, as decoded objects from a real server are.
type Server struct {
	mu      sync.Mutex
	rv      int64
	uids    int
	objects map[string]*corev1.ConfigMap // by key
	log     []logEntry
	horizon int64 // watches from a resourceVersion below it get 410
	epoch   int   // number of disruptions so far
	changed chan struct{}
	clients []*Client
	watches map[*serverWatch]struct{}
	running sync.WaitGroup // watch goroutines
}

// NewServer returns a server with no objects at resourceVersion 0.
func NewServer() *Server {
	return &Server{
		objects: make(map[string]*corev1.ConfigMap),
		changed: make(chan struct{}),
		watches: make(map[*serverWatch]struct{}),
	}
}

// NewClient returns a new connection to s for one informer; its trace
// records what that informer received.
func (s *Server) NewClient(name string) *Client {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := &Client{server: s, name: name, healthyEpoch: -1}
	s.clients = append(s.clients, c)
	return c
}

// Apply makes one change, visible to open watches at once.
func (s *Server) Apply(c Change) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	defer s.broadcastLocked()
	return s.applyLocked(c)
}

// Bookmark sends every open watch a bookmark at the current
// resourceVersion.
func (s *Server) Bookmark() {
	s.mu.Lock()
	defer s.mu.Unlock()
	bookmark := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{ResourceVersion: strconv.FormatInt(s.rv, 10)}}
	s.log = append(s.log, logEntry{typ: watch.Bookmark, obj: bookmark, rv: s.rv})
	s.broadcastLocked()
}

// CloseWatches ends every open watch cleanly once it has delivered the
// changes made so far, as a server-side watch timeout does.
func (s *Server) CloseWatches() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.endWatchesLocked(nil)
	s.epoch++
	s.broadcastLocked()
}

// ExpireWatches ends every open watch with 410 Gone once it has delivered
// the changes made so far, then makes the gap changes and compacts the
// history up to the resulting resourceVersion. Clients therefore learn of
// the gap changes only by relisting.
func (s *Server) ExpireWatches(gap []Change) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	defer s.broadcastLocked()
	s.endWatchesLocked(goneStatus())
	s.epoch++
	for _, c := range gap {
		if err := s.applyLocked(c); err != nil {
			return err
		}
	}
	s.horizon = s.rv
	return nil
}

// FailWatches makes the next n Watch calls of every client fail with err,
// then closes the open watches cleanly so that clients call Watch again.
func (s *Server) FailWatches(n int, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range s.clients {
		c.failLeft, c.failErr = n, err
	}
	s.endWatchesLocked(nil)
	s.epoch++
	s.broadcastLocked()
}

// Epoch is the number of disruptions (CloseWatches, ExpireWatches,
// FailWatches) so far.
func (s *Server) Epoch() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.epoch
}

// Watching reports whether every client opened a watch that can resume
// (not failed, not expired) since the last disruption: from then on, each
// one receives every change in order.
func (s *Server) Watching() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range s.clients {
		if c.healthyEpoch != s.epoch {
			return false
		}
	}
	return true
}

// State returns the current state: every present object's State by key.
func (s *Server) State() map[string]State {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[string]State, len(s.objects))
	for k, o := range s.objects {
		out[k] = StateOf(o)
	}
	return out
}

// Wait returns once every watch goroutine has ended; watches end when
// stopped or when the context given to Watch is done.
func (s *Server) Wait() { s.running.Wait() }

func (s *Server) broadcastLocked() {
	close(s.changed)
	s.changed = make(chan struct{})
}

// endWatchesLocked marks every open watch to end after the current log,
// with the error status end (nil: a clean close).
func (s *Server) endWatchesLocked(end *metav1.Status) {
	for w := range s.watches {
		if w.end < 0 {
			w.end = len(s.log)
			w.endStatus = end
		}
	}
}

func (s *Server) applyLocked(c Change) error {
	switch c.Kind {
	case ChangeAdd:
		return s.addLocked(c.Key)
	case ChangeUpdate:
		old, ok := s.objects[c.Key]
		if !ok {
			return fmt.Errorf("conformance: update of absent %s", c.Key)
		}
		s.rv++
		obj := old.DeepCopy()
		obj.ResourceVersion = strconv.FormatInt(s.rv, 10)
		obj.Data = map[string]string{"rv": obj.ResourceVersion}
		s.objects[c.Key] = obj
		s.log = append(s.log, logEntry{typ: watch.Modified, obj: obj, rv: s.rv})
		return nil
	case ChangeDelete:
		return s.deleteLocked(c.Key)
	case ChangeRecreate:
		if err := s.deleteLocked(c.Key); err != nil {
			return err
		}
		return s.addLocked(c.Key)
	}
	return fmt.Errorf("conformance: unknown change %v", c)
}

func (s *Server) addLocked(key string) error {
	if _, ok := s.objects[key]; ok {
		return fmt.Errorf("conformance: add of present %s", key)
	}
	ns, name, ok := strings.Cut(key, "/")
	if !ok {
		return fmt.Errorf("conformance: key %q is not namespace/name", key)
	}
	s.rv++
	s.uids++
	rv := strconv.FormatInt(s.rv, 10)
	obj := &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{
			Namespace:       ns,
			Name:            name,
			UID:             types.UID("uid-" + strconv.Itoa(s.uids)),
			ResourceVersion: rv,
		},
		Data: map[string]string{"rv": rv},
	}
	s.objects[key] = obj
	s.log = append(s.log, logEntry{typ: watch.Added, obj: obj, rv: s.rv})
	return nil
}

func (s *Server) deleteLocked(key string) error {
	old, ok := s.objects[key]
	if !ok {
		return fmt.Errorf("conformance: delete of absent %s", key)
	}
	s.rv++
	// As on a real server, the deleted object carries the deletion's
	// resourceVersion.
	obj := old.DeepCopy()
	obj.ResourceVersion = strconv.FormatInt(s.rv, 10)
	delete(s.objects, key)
	s.log = append(s.log, logEntry{typ: watch.Deleted, obj: obj, rv: s.rv})
	return nil
}

// listLocked returns copies of the present objects, sorted by key.
func (s *Server) listLocked() *corev1.ConfigMapList {
	keys := make([]string, 0, len(s.objects))
	for k := range s.objects {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	list := &corev1.ConfigMapList{ListMeta: metav1.ListMeta{ResourceVersion: strconv.FormatInt(s.rv, 10)}}
	list.Items = make([]corev1.ConfigMap, 0, len(keys))
	for _, k := range keys {
		list.Items = append(list.Items, *s.objects[k].DeepCopy())
	}
	return list
}

// logIndexAfter is the index of the first log entry past resourceVersion rv.
func (s *Server) logIndexAfter(rv int64) int {
	return sort.Search(len(s.log), func(i int) bool { return s.log[i].rv > rv })
}

// parseResourceVersion parses a request's resourceVersion; "" and "0"
// (any version) come back as -1.
func parseResourceVersion(rv string) (int64, error) {
	if rv == "" || rv == "0" {
		return -1, nil
	}
	n, err := strconv.ParseInt(rv, 10, 64)
	if err != nil || n < 0 {
		return 0, apierrors.NewBadRequest(fmt.Sprintf("invalid resourceVersion %q", rv))
	}
	return n, nil
}

// goneStatus is the status of a 410 Gone watch error event.
func goneStatus() *metav1.Status {
	status := apierrors.NewResourceExpired("too old resource version").Status()
	status.Code = http.StatusGone
	return &status
}

// errTooLarge is returned for a resourceVersion the server has not reached.
func errTooLarge(rv int64) error {
	err := apierrors.NewTimeoutError(fmt.Sprintf("Too large resource version: %d", rv), 1)
	err.ErrStatus.Details.Causes = append(err.ErrStatus.Details.Causes, metav1.StatusCause{
		Type: metav1.CauseTypeResourceVersionTooLarge, Message: "Too large resource version",
	})
	return err
}
