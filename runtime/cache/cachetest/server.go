package cachetest

import (
	"context"
	"fmt"
	"net/http"
	"reflect"
	"sort"
	"strconv"
	"sync"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
)

// entry is one change (or bookmark) in the server's history.
type entry struct {
	typ  watch.EventType
	obj  runtime.Object // the object after the change; immutable once logged
	prev runtime.Object // the object before it (Modified, Deleted); nil otherwise
	rv   int64
}

// Server is an in-memory API server for one resource: the present objects
// by key ("namespace/name", or "name" for cluster-scoped objects), a
// resourceVersion counter every change increments, a history of the
// changes and a compaction horizon below which watches can no longer
// resume. It implements the ListerWatcher and ListerWatcherWithContext
// interfaces of runtime/cache (List, Watch, ListWithContext,
// WatchWithContext) with the semantics of kube-apiserver that informers
// rely on; see the package documentation.
//
// All methods are safe for concurrent use. Objects go in and come out as
// deep copies: a caller may change what it passed or received.
type Server struct {
	listType reflect.Type // *XList
	itemType reflect.Type // X (the struct behind *X)

	// mu guards every field below it; changed is closed and replaced
	// (under mu) at each change, to wake the watches.
	mu           sync.Mutex
	rv           int64
	uids         int
	objects      map[string]runtime.Object
	log          []entry
	base         int   // absolute index of log[0]; entries before it were trimmed
	horizon      int64 // watches from a resourceVersion below it get 410 Gone
	historyLimit int   // changes kept for watches to resume from; 0: all
	changed      chan struct{}
	watches      map[*serverWatch]struct{}
	failLists    failures
	failWatches  failures
	lists        int
	watchCalls   int
	running      sync.WaitGroup // watch goroutines
	// hung, when not nil, is closed when the server answers again
	// (Hang(false)); lists and watch opens wait for it, unanswered of
	// them at a time.
	hung       chan struct{}
	unanswered int
}

// failures is a count of calls to fail and the error they fail with.
type failures struct {
	left int
	err  error
}

func (f *failures) take() error {
	if f.left <= 0 {
		return nil
	}
	f.left--
	return f.err
}

// NewServer returns a server without objects at resourceVersion 1 (0 is
// not a resourceVersion: it means "any" in requests) for the resource
// whose list type is the type of list, such as &corev1.ConfigMapList{} or
// &metav1.PartialObjectMetadataList{}; it only serves objects of that
// list's item type. NewServer panics when list is not a pointer to a
// struct with an Items slice.
func NewServer(list runtime.Object) *Server {
	lt := reflect.TypeOf(list)
	if lt == nil || lt.Kind() != reflect.Pointer || lt.Elem().Kind() != reflect.Struct {
		panic(fmt.Sprintf("cachetest: list type %T is not a pointer to a struct", list))
	}
	items, ok := lt.Elem().FieldByName("Items")
	if !ok || items.Type.Kind() != reflect.Slice {
		panic(fmt.Sprintf("cachetest: list type %T has no Items slice", list))
	}
	it := items.Type.Elem()
	if it.Kind() == reflect.Pointer {
		it = it.Elem()
	}
	if _, ok := reflect.New(it).Interface().(runtime.Object); !ok {
		panic(fmt.Sprintf("cachetest: items of %T are not runtime.Objects", list))
	}
	return &Server{
		listType: lt,
		itemType: it,
		rv:       1,
		objects:  make(map[string]runtime.Object),
		changed:  make(chan struct{}),
		watches:  make(map[*serverWatch]struct{}),
	}
}

// ResourceVersion returns the server's current resourceVersion: that of
// its latest change.
func (s *Server) ResourceVersion() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return formatRV(s.rv)
}

// Get returns a copy of the object under namespace and name, and whether
// it exists.
func (s *Server) Get(namespace, name string) (runtime.Object, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	o, ok := s.objects[key(namespace, name)]
	if !ok {
		return nil, false
	}
	return o.DeepCopyObject(), true
}

// Objects returns copies of the present objects, sorted by key.
func (s *Server) Objects() []runtime.Object {
	s.mu.Lock()
	defer s.mu.Unlock()
	return copies(sortedObjects(s.objects))
}

// Add creates obj with a new resourceVersion, and a UID when it has none,
// and returns the stored copy. It fails with an AlreadyExists error when
// an object of that key exists.
func (s *Server) Add(obj runtime.Object) (runtime.Object, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	defer s.broadcastLocked()
	return s.addLocked(obj)
}

// Update stores obj, with a new resourceVersion and the stored object's
// UID, as the new version of the object of its key, and returns the stored
// copy. It fails with a NotFound error when there is no object of that key
// and with a Conflict error when obj has a UID that differs from the
// stored one's.
func (s *Server) Update(obj runtime.Object) (runtime.Object, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	defer s.broadcastLocked()
	return s.updateLocked(obj)
}

// Delete deletes the object under namespace and name and returns it as
// watchers see it: carrying the deletion's resourceVersion. It fails with
// a NotFound error when there is no such object.
func (s *Server) Delete(namespace, name string) (runtime.Object, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	defer s.broadcastLocked()
	return s.deleteLocked(namespace, name)
}

// Bookmark appends a bookmark at the current resourceVersion to the
// history: every open watch that asked for bookmarks
// (AllowWatchBookmarks) receives it after the changes before it.
func (s *Server) Bookmark() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.log = append(s.log, entry{typ: watch.Bookmark, obj: s.bookmarkLocked(nil), rv: s.rv})
	s.broadcastLocked()
}

// CloseWatches ends every open watch cleanly once it has delivered the
// changes made so far, as a server-side watch timeout or a cut connection
// does: clients resume watching from the last resourceVersion they saw.
func (s *Server) CloseWatches() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.endWatchesLocked(nil)
	s.broadcastLocked()
}

// ExpireWatches ends every open watch with a 410 Gone error event once it
// has delivered the changes made so far, then calls hidden (when not nil)
// to make changes no watch sees, then compacts the history up to the
// resulting resourceVersion. Clients therefore learn of the hidden changes
// only by relisting. hidden runs with the server locked: it must only use
// tx, which is valid during the call only. ExpireWatches returns hidden's
// error; the changes made before it stay.
func (s *Server) ExpireWatches(hidden func(tx *Tx) error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	defer s.broadcastLocked()
	s.endWatchesLocked(goneStatus())
	var err error
	if hidden != nil {
		err = hidden(&Tx{s: s})
	}
	s.compactLocked(s.rv)
	return err
}

// Compact moves the compaction horizon to the current resourceVersion:
// from then on a watch from an older resourceVersion gets 410 Gone, as
// does a list at such an exact resourceVersion or a continue token issued
// before. Open watches go on.
func (s *Server) Compact() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.compactLocked(s.rv)
}

// SetHistoryLimit bounds the history watches can resume from to the last
// n changes (bookmarks do not count): each change beyond them moves the
// compaction horizon past the oldest. n <= 0 keeps every change, the
// default.
func (s *Server) SetHistoryLimit(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.historyLimit = n
	s.enforceHistoryLimitLocked()
}

// FailLists makes the next n List calls fail with err.
func (s *Server) FailLists(n int, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failLists = failures{left: n, err: err}
}

// FailWatches makes the next n Watch calls fail with err. Open watches go
// on; call CloseWatches too to make clients call Watch again.
func (s *Server) FailWatches(n int, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failWatches = failures{left: n, err: err}
}

// Hang makes the server stop answering (on) or answer again (off): while
// it hangs, List and Watch calls wait until it answers again or their
// context ends, as against a kube-apiserver that accepts connections but
// does not answer yet (one starting up) or through a connection a proxy
// holds open without forwarding. Open watches go on.
func (s *Server) Hang(on bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case on && s.hung == nil:
		s.hung = make(chan struct{})
	case !on && s.hung != nil:
		close(s.hung)
		s.hung = nil
	}
}

// lockAnswering locks s.mu once the server answers (Hang) and returns
// nil with it held, or ctx's error (unlocked) when ctx ends first. The
// check and the lock are one step, so a call is either served before a
// Hang(true) (a watch it opens is one CloseWatches ends) or waits.
func (s *Server) lockAnswering(ctx context.Context) error {
	s.mu.Lock()
	for s.hung != nil && ctx.Err() == nil {
		hung := s.hung
		s.unanswered++
		s.mu.Unlock()
		select {
		case <-hung:
		case <-ctx.Done():
		}
		s.mu.Lock()
		s.unanswered--
	}
	if err := ctx.Err(); err != nil {
		s.mu.Unlock()
		return err
	}
	return nil
}

// Unanswered returns how many List and Watch calls wait for the server to
// answer (Hang).
func (s *Server) Unanswered() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.unanswered
}

// Calls returns how many List and Watch calls the server served, failed
// ones included.
func (s *Server) Calls() (lists, watches int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lists, s.watchCalls
}

// OpenWatches returns how many watches are open and will deliver the
// changes to come: not stopped, not ended by CloseWatches or
// ExpireWatches, not a watch that only reports 410 Gone.
func (s *Server) OpenWatches() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for w := range s.watches {
		if w.end < 0 && !w.stopped() {
			n++
		}
	}
	return n
}

// Wait returns once the goroutine of every watch has ended; a watch ends
// when stopped, when the context given to Watch is done, or after
// CloseWatches or ExpireWatches once its client received what was left.
func (s *Server) Wait() { s.running.Wait() }

// Tx makes changes while a Server is locked, in ExpireWatches. Its methods
// are those of Server, without the locking: call them only from the
// function given the Tx, on that function's goroutine.
type Tx struct{ s *Server }

// Add is Server.Add.
func (tx *Tx) Add(obj runtime.Object) (runtime.Object, error) { return tx.s.addLocked(obj) }

// Update is Server.Update.
func (tx *Tx) Update(obj runtime.Object) (runtime.Object, error) { return tx.s.updateLocked(obj) }

// Delete is Server.Delete.
func (tx *Tx) Delete(namespace, name string) (runtime.Object, error) {
	return tx.s.deleteLocked(namespace, name)
}

func (s *Server) broadcastLocked() {
	close(s.changed)
	s.changed = make(chan struct{})
}

// endWatchesLocked makes every open watch end after the current history,
// with the error status end (nil: a clean close).
func (s *Server) endWatchesLocked(end *metav1.Status) {
	for w := range s.watches {
		if w.end < 0 {
			w.end = s.base + len(s.log)
			w.endStatus = end
		}
	}
}

// accept checks that obj is of the server's item type and returns its
// metadata.
func (s *Server) accept(obj runtime.Object) (metav1.Object, error) {
	if t := reflect.TypeOf(obj); t == nil || t.Kind() != reflect.Pointer || t.Elem() != s.itemType {
		return nil, apierrors.NewBadRequest(fmt.Sprintf("cachetest: object of type %T, this server serves *%v", obj, s.itemType))
	}
	m, err := meta.Accessor(obj)
	if err != nil {
		return nil, apierrors.NewBadRequest(err.Error())
	}
	if m.GetName() == "" {
		return nil, apierrors.NewBadRequest("cachetest: object without a name")
	}
	return m, nil
}

func (s *Server) addLocked(in runtime.Object) (runtime.Object, error) {
	m, err := s.accept(in)
	if err != nil {
		return nil, err
	}
	k := key(m.GetNamespace(), m.GetName())
	if _, ok := s.objects[k]; ok {
		return nil, apierrors.NewAlreadyExists(s.resource(), k)
	}
	obj := in.DeepCopyObject()
	om, _ := meta.Accessor(obj)
	if om.GetUID() == "" {
		s.uids++
		om.SetUID(types.UID("uid-" + strconv.Itoa(s.uids)))
	}
	s.rv++
	om.SetResourceVersion(formatRV(s.rv))
	s.objects[k] = obj
	s.appendLocked(entry{typ: watch.Added, obj: obj, rv: s.rv})
	return obj.DeepCopyObject(), nil
}

func (s *Server) updateLocked(in runtime.Object) (runtime.Object, error) {
	m, err := s.accept(in)
	if err != nil {
		return nil, err
	}
	k := key(m.GetNamespace(), m.GetName())
	old, ok := s.objects[k]
	if !ok {
		return nil, apierrors.NewNotFound(s.resource(), k)
	}
	oldMeta, _ := meta.Accessor(old)
	if uid := m.GetUID(); uid != "" && uid != oldMeta.GetUID() {
		return nil, apierrors.NewConflict(s.resource(), k, fmt.Errorf("UID %s, stored object has %s", uid, oldMeta.GetUID()))
	}
	obj := in.DeepCopyObject()
	om, _ := meta.Accessor(obj)
	om.SetUID(oldMeta.GetUID())
	s.rv++
	om.SetResourceVersion(formatRV(s.rv))
	s.objects[k] = obj
	s.appendLocked(entry{typ: watch.Modified, obj: obj, prev: old, rv: s.rv})
	return obj.DeepCopyObject(), nil
}

func (s *Server) deleteLocked(namespace, name string) (runtime.Object, error) {
	k := key(namespace, name)
	old, ok := s.objects[k]
	if !ok {
		return nil, apierrors.NewNotFound(s.resource(), k)
	}
	s.rv++
	// As on a real server, the deleted object carries the deletion's
	// resourceVersion.
	obj := old.DeepCopyObject()
	om, _ := meta.Accessor(obj)
	om.SetResourceVersion(formatRV(s.rv))
	delete(s.objects, k)
	s.appendLocked(entry{typ: watch.Deleted, obj: obj, prev: old, rv: s.rv})
	return obj.DeepCopyObject(), nil
}

func (s *Server) appendLocked(e entry) {
	s.log = append(s.log, e)
	s.enforceHistoryLimitLocked()
}

// enforceHistoryLimitLocked moves the horizon past the changes beyond the
// history limit.
func (s *Server) enforceHistoryLimitLocked() {
	if s.historyLimit <= 0 {
		return
	}
	kept := 0
	for i := len(s.log) - 1; i >= 0; i-- {
		if s.log[i].typ == watch.Bookmark || s.log[i].rv <= s.horizon {
			continue
		}
		kept++
		if kept > s.historyLimit {
			s.compactLocked(s.log[i].rv)
			return
		}
	}
}

// compactLocked moves the horizon to rv (never back) and drops the
// history no open watch and no watch or list to come can need.
func (s *Server) compactLocked(rv int64) {
	if rv > s.horizon {
		s.horizon = rv
	}
	cut := s.base + sort.Search(len(s.log), func(i int) bool { return s.log[i].rv > s.horizon })
	for w := range s.watches {
		if w.cursor < cut {
			cut = w.cursor
		}
	}
	if n := cut - s.base; n > 0 {
		clear(s.log[:n])
		s.log = s.log[n:]
		s.base = cut
	}
}

// bookmarkLocked returns an object of the item type carrying only the
// current resourceVersion and annotations.
func (s *Server) bookmarkLocked(annotations map[string]string) runtime.Object {
	obj := reflect.New(s.itemType).Interface().(runtime.Object)
	m, _ := meta.Accessor(obj)
	m.SetResourceVersion(formatRV(s.rv))
	m.SetAnnotations(annotations)
	return obj
}

func (s *Server) resource() schema.GroupResource {
	return schema.GroupResource{Resource: s.itemType.Name()}
}

func key(namespace, name string) string {
	if namespace == "" {
		return name
	}
	return namespace + "/" + name
}

func formatRV(rv int64) string { return strconv.FormatInt(rv, 10) }

// sortedObjects returns the objects of m sorted by key, not copied.
func sortedObjects(m map[string]runtime.Object) []runtime.Object {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([]runtime.Object, len(keys))
	for i, k := range keys {
		out[i] = m[k]
	}
	return out
}

func copies(objs []runtime.Object) []runtime.Object {
	out := make([]runtime.Object, len(objs))
	for i, o := range objs {
		out[i] = o.DeepCopyObject()
	}
	return out
}

// goneStatus is the status of a 410 Gone watch error event.
func goneStatus() *metav1.Status {
	status := apierrors.NewResourceExpired("too old resource version").Status()
	status.Code = http.StatusGone
	return &status
}

// errTooLarge is the error for a resourceVersion the server has not
// reached, as kube-apiserver reports it.
func errTooLarge(rv int64) error {
	err := apierrors.NewTimeoutError(fmt.Sprintf("Too large resource version: %d", rv), 1)
	err.ErrStatus.Details.Causes = append(err.ErrStatus.Details.Causes, metav1.StatusCause{
		Type: metav1.CauseTypeResourceVersionTooLarge, Message: "Too large resource version",
	})
	return err
}
