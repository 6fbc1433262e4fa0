package factory

import (
	"context"
	"strings"

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

// SetWatchErrorHandlerWithContext installs handler on every namespace's
// informer.
func (m *multiNamespaceInformer) SetWatchErrorHandlerWithContext(handler cache.WatchErrorHandlerWithContext) error {
	return m.each(func(p cache.SharedIndexInformer) error { return p.SetWatchErrorHandlerWithContext(handler) })
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
