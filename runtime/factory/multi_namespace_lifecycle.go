package factory

import (
	"context"
	"strings"
	"sync"

	"k8s.io/apimachinery/pkg/util/wait"

	"github.com/informer-gen/informer-gen/runtime/cache"
)

// Run is RunWithContext with a context that ends when stopCh is closed.
func (m *multiNamespaceInformer) Run(stopCh <-chan struct{}) {
	m.RunWithContext(wait.ContextForChannel(stopCh))
}

// GetController returns a Controller view of the informers: its Run
// methods do nothing, the others report the union's state.
func (m *multiNamespaceInformer) GetController() cache.Controller { return multiController{m} }

// HasSyncedChecker returns a DoneChecker done once every namespace's
// informer synced.
func (m *multiNamespaceInformer) HasSyncedChecker() cache.DoneChecker {
	checkers := make([]cache.DoneChecker, len(m.parts))
	for i, p := range m.parts {
		checkers[i] = p.HasSyncedChecker()
	}
	return newAllDone("namespaces "+strings.Join(m.namespaces, ","), checkers)
}

// SetWatchErrorHandlerWithContext installs handler on every namespace's
// informer.
func (m *multiNamespaceInformer) SetWatchErrorHandlerWithContext(handler cache.WatchErrorHandlerWithContext) error {
	return m.each(func(p cache.SharedIndexInformer) error { return p.SetWatchErrorHandlerWithContext(handler) })
}

// HasSyncedChecker returns a DoneChecker done once the handler synced on
// every namespace's informer.
func (r *multiRegistration) HasSyncedChecker() cache.DoneChecker {
	checkers := make([]cache.DoneChecker, len(r.regs))
	for i, reg := range r.regs {
		checkers[i] = reg.HasSyncedChecker()
	}
	return newAllDone("handler", checkers)
}

// allDone is a DoneChecker done once every one of checkers is. The first
// Done call starts one goroutine that waits for them in turn.
type allDone struct {
	name     string
	checkers []cache.DoneChecker
	once     sync.Once
	done     chan struct{}
}

func newAllDone(name string, checkers []cache.DoneChecker) *allDone {
	return &allDone{name: name, checkers: checkers, done: make(chan struct{})}
}

func (a *allDone) Name() string { return a.name }

func (a *allDone) Done() <-chan struct{} {
	a.once.Do(func() {
		go func() {
			for _, c := range a.checkers {
				<-c.Done()
			}
			close(a.done)
		}()
	})
	return a.done
}

type multiController struct{ m *multiNamespaceInformer }

func (c multiController) RunWithContext(context.Context)      {}
func (c multiController) Run(<-chan struct{})                 {}
func (c multiController) HasSynced() bool                     { return c.m.HasSynced() }
func (c multiController) HasSyncedChecker() cache.DoneChecker { return c.m.HasSyncedChecker() }
func (c multiController) LastSyncResourceVersion() string     { return c.m.LastSyncResourceVersion() }

// Bookmark does nothing: the union is read-only; each namespace's cache
// records its own resourceVersion.
func (u unionIndexer) Bookmark(string) {}

// LastStoreSyncResourceVersion returns the namespaces' caches'
// resourceVersions, in namespace order, joined by commas.
func (u unionIndexer) LastStoreSyncResourceVersion() string {
	rvs := make([]string, len(u.m.parts))
	for i, p := range u.m.parts {
		rvs[i] = p.GetIndexer().LastStoreSyncResourceVersion()
	}
	return strings.Join(rvs, ",")
}
