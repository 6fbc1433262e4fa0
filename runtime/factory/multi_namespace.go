package factory

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/informer-gen/informer-gen/runtime/cache"
)

// multiNamespaceInformer presents one informer per namespace as a single
// SharedIndexInformer: its cache is the union of theirs and its handlers
// hear from all of them. A key lives in exactly one namespace, so per-key
// ordering is that of the namespace's informer.
type multiNamespaceInformer struct {
	byNamespace map[string]cache.SharedIndexInformer
	parts       []cache.SharedIndexInformer // in namespace order
	namespaces  []string
	indexer     unionIndexer
	sync        *multiSync
}

func newMultiNamespaceInformer(namespaces []string, parts []cache.SharedIndexInformer) *multiNamespaceInformer {
	m := &multiNamespaceInformer{byNamespace: make(map[string]cache.SharedIndexInformer, len(parts)), namespaces: namespaces, parts: parts, sync: newMultiSync()}
	for i, ns := range namespaces {
		m.byNamespace[ns] = parts[i]
	}
	m.indexer = unionIndexer{m}
	return m
}

// multiRegistration is the registration of one handler on every part of
// owner.
type multiRegistration struct {
	owner *multiNamespaceInformer
	regs  []cache.ResourceEventHandlerRegistration
	// ctx ends when the handler is removed or the informer stops; it
	// bounds the wait of the handler's HasSyncedChecker.
	ctx    context.Context
	cancel context.CancelFunc

	checkerOnce sync.Once
	checker     *handlerSynced // made by checkerOnce
}

func (r *multiRegistration) HasSynced() bool {
	for _, reg := range r.regs {
		if !reg.HasSynced() {
			return false
		}
	}
	return true
}

func (m *multiNamespaceInformer) AddEventHandler(handler cache.ResourceEventHandler) (cache.ResourceEventHandlerRegistration, error) {
	return m.AddEventHandlerWithOptions(handler, cache.HandlerOptions{})
}

func (m *multiNamespaceInformer) AddEventHandlerWithResyncPeriod(handler cache.ResourceEventHandler, resyncPeriod time.Duration) (cache.ResourceEventHandlerRegistration, error) {
	return m.AddEventHandlerWithOptions(handler, cache.HandlerOptions{ResyncPeriod: &resyncPeriod})
}

// AddEventHandlerWithOptions registers handler on every namespace's
// informer behind a lock, so the handler is never called concurrently even
// though the informers deliver from different goroutines.
func (m *multiNamespaceInformer) AddEventHandlerWithOptions(handler cache.ResourceEventHandler, options cache.HandlerOptions) (cache.ResourceEventHandlerRegistration, error) {
	serial := &serialHandler{h: handler, running: len(m.parts)}
	reg := &multiRegistration{owner: m}
	reg.ctx, reg.cancel = context.WithCancel(m.sync.stopped)
	for _, p := range m.parts {
		r, err := p.AddEventHandlerWithOptions(serial, options)
		if err != nil {
			_ = m.RemoveEventHandler(reg)
			return nil, err
		}
		reg.regs = append(reg.regs, r)
	}
	return reg, nil
}

func (m *multiNamespaceInformer) RemoveEventHandler(handle cache.ResourceEventHandlerRegistration) error {
	reg, ok := handle.(*multiRegistration)
	if !ok || reg.owner != m {
		return fmt.Errorf("factory: registration %T was not made by this informer", handle)
	}
	reg.cancel()
	var errs []error
	for i, r := range reg.regs {
		errs = append(errs, m.parts[i].RemoveEventHandler(r))
	}
	return errors.Join(errs...)
}

func (m *multiNamespaceInformer) GetStore() cache.Store     { return m.indexer }
func (m *multiNamespaceInformer) GetIndexer() cache.Indexer { return m.indexer }

func (m *multiNamespaceInformer) HasSynced() bool {
	for _, p := range m.parts {
		if !p.HasSynced() {
			return false
		}
	}
	return true
}

// SyncError returns the sync errors of the namespaces' informers that
// have not synced, joined in namespace order; nil when there is none (see
// cache.SyncErrorReporter).
func (m *multiNamespaceInformer) SyncError() error {
	var errs []error
	for _, p := range m.parts {
		if r, ok := p.(cache.SyncErrorReporter); ok {
			if err := r.SyncError(); err != nil {
				errs = append(errs, err)
			}
		}
	}
	if len(errs) == 1 {
		return errs[0]
	}
	return errors.Join(errs...)
}

// AfterSyncError calls f with every list or watch failure the namespaces'
// informers record from now on, until stop is called (see
// cache.SyncErrorNotifier). Namespaces' informers that cannot tell
// (without cache.SyncErrorNotifier) are left out.
func (m *multiNamespaceInformer) AfterSyncError(f func(err error)) (stop func() bool) {
	var stops []func() bool
	for _, p := range m.parts {
		if n, ok := p.(cache.SyncErrorNotifier); ok {
			stops = append(stops, n.AfterSyncError(f))
		}
	}
	return func() bool {
		removed := false
		for _, stop := range stops {
			removed = stop() || removed
		}
		return removed
	}
}

var _ cache.SyncErrorNotifier = (*multiNamespaceInformer)(nil)

// LastSyncResourceVersion returns the resourceVersions of the namespaces'
// informers, in namespace order, joined by commas: there is no single
// version that describes several independent watches.
func (m *multiNamespaceInformer) LastSyncResourceVersion() string {
	rvs := make([]string, len(m.parts))
	for i, p := range m.parts {
		rvs[i] = p.LastSyncResourceVersion()
	}
	return strings.Join(rvs, ",")
}

func (m *multiNamespaceInformer) SetWatchErrorHandler(handler cache.WatchErrorHandler) error {
	return m.each(func(p cache.SharedIndexInformer) error { return p.SetWatchErrorHandler(handler) })
}

func (m *multiNamespaceInformer) SetTransform(transform cache.TransformFunc) error {
	return m.each(func(p cache.SharedIndexInformer) error { return p.SetTransform(transform) })
}

// SetShard gives every namespace's informer the shard of src; each
// subscribes to it on its own. It fails once the informer started, or when
// a namespace's informer cannot hold a shard.
func (m *multiNamespaceInformer) SetShard(src cache.ShardSource) error {
	return m.each(func(p cache.SharedIndexInformer) error { return setShard(p, src) })
}

// AddIndexers adds indexers to every namespace's cache, or to none: it
// first checks that no namespace has an index of the same name and that
// the index functions accept every cached object. An object a namespace's
// informer caches between that check and the addition can still make the
// addition fail there alone.
func (m *multiNamespaceInformer) AddIndexers(indexers cache.Indexers) error {
	err := m.each(func(p cache.SharedIndexInformer) error {
		idx := p.GetIndexer()
		existing := idx.GetIndexers()
		for name := range indexers {
			if _, ok := existing[name]; ok {
				return fmt.Errorf("factory: index %q already exists", name)
			}
		}
		for _, obj := range idx.List() {
			for name, fn := range indexers {
				if _, err := fn(obj); err != nil {
					return fmt.Errorf("factory: index %q: %w", name, err)
				}
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	return m.each(func(p cache.SharedIndexInformer) error { return p.AddIndexers(indexers) })
}

func (m *multiNamespaceInformer) IsStopped() bool {
	for _, p := range m.parts {
		if !p.IsStopped() {
			return false
		}
	}
	return true
}

func (m *multiNamespaceInformer) each(f func(cache.SharedIndexInformer) error) error {
	for i, p := range m.parts {
		if err := f(p); err != nil {
			return fmt.Errorf("namespace %q: %w", m.namespaces[i], err)
		}
	}
	return nil
}

// serialHandler calls its handler under a lock. It passes OnStop on once,
// when the handler's registration in every namespace has stopped.
type serialHandler struct {
	mu      sync.Mutex // guards running and serialises calls of h
	h       cache.ResourceEventHandler
	running int // registrations in namespaces not yet stopped
}

func (s *serialHandler) OnStop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.running--
	if s.running != 0 {
		return
	}
	if st, ok := s.h.(cache.StopHandler); ok {
		st.OnStop()
	}
}

func (s *serialHandler) OnAdd(obj any, isInInitialList bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.h.OnAdd(obj, isInInitialList)
}

func (s *serialHandler) OnUpdate(oldObj, newObj any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.h.OnUpdate(oldObj, newObj)
}

func (s *serialHandler) OnDelete(obj any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.h.OnDelete(obj)
}

func (s *serialHandler) OnResync(obj any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if r, ok := s.h.(cache.ResyncHandler); ok {
		r.OnResync(obj)
		return
	}
	s.h.OnUpdate(obj, obj)
}

// unionIndexer is the read view over the namespaces' caches. Reads by key
// go to the key's namespace; lists concatenate. Writes are refused: only
// the informers write their caches.
type unionIndexer struct {
	m *multiNamespaceInformer
}

var errReadOnly = errors.New("factory: the cache of a multi-namespace informer is read-only")

func (u unionIndexer) Add(any) error                      { return errReadOnly }
func (u unionIndexer) Update(any) error                   { return errReadOnly }
func (u unionIndexer) Delete(any) error                   { return errReadOnly }
func (u unionIndexer) Replace([]any, string) error        { return errReadOnly }
func (u unionIndexer) Resync() error                      { return nil }
func (u unionIndexer) AddIndexers(i cache.Indexers) error { return u.m.AddIndexers(i) }
func (u unionIndexer) GetIndexers() cache.Indexers        { return u.m.parts[0].GetIndexer().GetIndexers() }

func (u unionIndexer) List() []any {
	var out []any
	for _, p := range u.m.parts {
		out = append(out, p.GetIndexer().List()...)
	}
	return out
}

func (u unionIndexer) ListKeys() []string {
	var out []string
	for _, p := range u.m.parts {
		out = append(out, p.GetIndexer().ListKeys()...)
	}
	return out
}

// Get returns the cached object with obj's key: obj may be an object, a
// DeletedFinalStateUnknown tombstone or an ExplicitKey, as for a single
// informer's cache.
func (u unionIndexer) Get(obj any) (any, bool, error) {
	key, err := cache.DeletionHandlingMetaNamespaceKeyFunc(obj)
	if err != nil {
		return nil, false, err
	}
	return u.GetByKey(key)
}

func (u unionIndexer) GetByKey(key string) (any, bool, error) {
	ns, _, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return nil, false, err
	}
	p, ok := u.m.byNamespace[ns]
	if !ok {
		return nil, false, nil
	}
	return p.GetIndexer().GetByKey(key)
}

func (u unionIndexer) Index(indexName string, obj any) ([]any, error) {
	out := []any{} // never nil, as a single informer's
	for _, p := range u.m.parts {
		objs, err := p.GetIndexer().Index(indexName, obj)
		if err != nil {
			return nil, err
		}
		out = append(out, objs...)
	}
	return out, nil
}

// IndexKeys returns the keys sorted, as a single informer's cache does.
func (u unionIndexer) IndexKeys(indexName, indexedValue string) ([]string, error) {
	keys, err := readIndex(u, indexName, indexedValue, cache.Indexer.IndexKeys)
	sort.Strings(keys)
	return keys, err
}

func (u unionIndexer) ByIndex(indexName, indexedValue string) ([]any, error) {
	return readIndex(u, indexName, indexedValue, cache.Indexer.ByIndex)
}

// readIndex reads indexName at indexedValue from the namespaces' caches:
// from the one namespace named for the namespace index, from all of them
// otherwise. What a single informer's cache returns, it returns: an error
// for an index that does not exist, never nil.
func readIndex[T any](u unionIndexer, indexName, indexedValue string, read func(cache.Indexer, string, string) ([]T, error)) ([]T, error) {
	if indexName == cache.NamespaceIndex {
		p, ok := u.m.byNamespace[indexedValue]
		if !ok {
			// Not one of the namespaces: any namespace's cache answers as
			// a single informer's would (empty, or the index's error).
			p = u.m.parts[0]
		}
		return read(p.GetIndexer(), indexName, indexedValue)
	}
	out := []T{}
	for _, p := range u.m.parts {
		got, err := read(p.GetIndexer(), indexName, indexedValue)
		if err != nil {
			return nil, err
		}
		out = append(out, got...)
	}
	return out, nil
}

func (u unionIndexer) ListIndexFuncValues(indexName string) []string {
	seen := map[string]bool{}
	for _, p := range u.m.parts {
		for _, v := range p.GetIndexer().ListIndexFuncValues(indexName) {
			seen[v] = true
		}
	}
	out := make([]string, 0, len(seen))
	for v := range seen {
		out = append(out, v)
	}
	sort.Strings(out)
	return out
}
