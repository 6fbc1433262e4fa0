package controllerruntime

import (
	toolscache "k8s.io/client-go/tools/cache"

	"github.com/informer-gen/informer-gen/runtime/cache"
)

// controller is runtime/cache's informer Controller as client-go's.
type controller struct {
	cache.Controller
}

var _ toolscache.Controller = controller{}

// HasSyncedChecker is done once the initial list is in the cache.
func (c controller) HasSyncedChecker() toolscache.DoneChecker {
	return c.Controller.HasSyncedChecker()
}
