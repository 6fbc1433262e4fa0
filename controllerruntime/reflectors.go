package controllerruntime

import (
	"sync"

	"k8s.io/apimachinery/pkg/runtime"
	toolscache "k8s.io/client-go/tools/cache"

	"github.com/informer-gen/informer-gen/runtime/cache"
)

// reflectors gives a client-go watch error handler the *Reflector it
// takes: a client-go Reflector (never run) with the name and type
// description of runtime/cache's reflector that failed, which is what
// client-go's DefaultWatchErrorHandler and controller-runtime's handlers
// read. It is made at the first error of each of the informer's
// reflectors.
type reflectors struct {
	lw            toolscache.ListerWatcher
	exampleObject runtime.Object

	mu   sync.Mutex // guards ours and made
	ours *cache.Reflector
	made *toolscache.Reflector
}

// clientGo returns the client-go Reflector standing for r.
func (rs *reflectors) clientGo(r *cache.Reflector) *toolscache.Reflector {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if rs.ours != r || rs.made == nil {
		rs.ours = r
		rs.made = toolscache.NewReflectorWithOptions(rs.lw, rs.exampleObject, toolscache.NewStore(toolscache.MetaNamespaceKeyFunc), toolscache.ReflectorOptions{
			Name:            r.Name(),
			TypeDescription: r.TypeDescription(),
		})
	}
	return rs.made
}
