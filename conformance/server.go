package conformance

import (
	"fmt"
	"strconv"
	"strings"
	"sync"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/informer-gen/informer-gen/runtime/cache/cachetest"
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

// Server is the API server both informers watch: a cachetest.Server of
// ConfigMaps (one state, one global resourceVersion counter, a history of
// every change and a compaction horizon below which watches can no longer
// resume), plus what the scenarios need on top: changes named by key,
// per-client failures, and knowing when every client watches again after
// a disruption.
//
// All methods are safe for concurrent use. Objects handed to clients are
// deep copies, as decoded objects from a real server are.
type Server struct {
	srv *cachetest.Server

	// mu orders disruptions and the opening of watches, so that Watching
	// knows which watches were opened after the last disruption.
	mu      sync.Mutex
	horizon int64 // watches from a resourceVersion below it get 410
	epoch   int   // number of disruptions so far
	updates int   // updates so far, for the data of updated objects
	outage  error // while not nil, every List and Watch call fails with it
	clients []*Client
	running sync.WaitGroup // forwarding goroutines of the clients' watches
}

// NewServer returns a server with no objects.
func NewServer() *Server {
	return &Server{srv: cachetest.NewServer(&corev1.ConfigMapList{})}
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
	return s.applyLocked(s.srv, c)
}

// Bookmark sends every open watch a bookmark at the current
// resourceVersion.
func (s *Server) Bookmark() { s.srv.Bookmark() }

// CloseWatches ends every open watch cleanly once it has delivered the
// changes made so far, as a server-side watch timeout does.
func (s *Server) CloseWatches() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.srv.CloseWatches()
	s.epoch++
}

// ExpireWatches ends every open watch with 410 Gone once it has delivered
// the changes made so far, then makes the gap changes and compacts the
// history up to the resulting resourceVersion. Clients therefore learn of
// the gap changes only by relisting.
func (s *Server) ExpireWatches(gap []Change) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.epoch++
	err := s.srv.ExpireWatches(func(tx *cachetest.Tx) error {
		for _, c := range gap {
			if err := s.applyLocked(tx, c); err != nil {
				return err
			}
		}
		return nil
	})
	s.horizon, _ = strconv.ParseInt(s.srv.ResourceVersion(), 10, 64)
	return err
}

// FailWatches makes the next n Watch calls of every client fail with err,
// then closes the open watches cleanly so that clients call Watch again.
func (s *Server) FailWatches(n int, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range s.clients {
		c.failLeft, c.failErr = n, err
	}
	s.srv.CloseWatches()
	s.epoch++
}

// StartOutage cuts every client off: the open watches end cleanly (a
// connection cut mid-stream ends the client's decoder, not with an error
// event), and every List and Watch call fails with err until EndOutage.
func (s *Server) StartOutage(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.outage = err
	s.srv.CloseWatches()
	s.epoch++
}

// EndOutage lets List and Watch calls through again.
func (s *Server) EndOutage() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.outage = nil
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
	objs := s.srv.Objects()
	out := make(map[string]State, len(objs))
	for _, o := range objs {
		out[keyOf(o)] = StateOf(o)
	}
	return out
}

// Wait returns once every watch goroutine has ended; watches end when
// stopped or when the context given to Watch is done.
func (s *Server) Wait() {
	s.running.Wait()
	s.srv.Wait()
}

// writer is what changes are made through: the cachetest server, or the
// Tx of an expiry.
type writer interface {
	Add(obj runtime.Object) (runtime.Object, error)
	Update(obj runtime.Object) (runtime.Object, error)
	Delete(namespace, name string) (runtime.Object, error)
}

func (s *Server) applyLocked(w writer, c Change) error {
	ns, name, ok := strings.Cut(c.Key, "/")
	if !ok {
		return fmt.Errorf("conformance: key %q is not namespace/name", c.Key)
	}
	var err error
	switch c.Kind {
	case ChangeAdd:
		_, err = w.Add(&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}})
	case ChangeUpdate:
		s.updates++
		_, err = w.Update(&corev1.ConfigMap{
			ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
			Data:       map[string]string{"update": strconv.Itoa(s.updates)},
		})
	case ChangeDelete:
		_, err = w.Delete(ns, name)
	case ChangeRecreate:
		if _, err = w.Delete(ns, name); err == nil {
			_, err = w.Add(&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}})
		}
	default:
		return fmt.Errorf("conformance: unknown change %v", c)
	}
	if err != nil {
		return fmt.Errorf("conformance: %v: %w", c, err)
	}
	return nil
}

// parseResourceVersion parses a request's resourceVersion; "" and "0"
// (any version) come back as -1, and anything else unparsable as well
// (the server rejects it).
func parseResourceVersion(rv string) int64 {
	if rv == "" || rv == "0" {
		return -1
	}
	n, err := strconv.ParseInt(rv, 10, 64)
	if err != nil {
		return -1
	}
	return n
}
