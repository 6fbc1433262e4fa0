package controllerruntime

import (
	toolscache "k8s.io/client-go/tools/cache"

	"github.com/informer-gen/informer-gen/runtime/cache"
)

// ourIndexers is indexers as runtime/cache's Indexers (the same functions).
func ourIndexers(indexers toolscache.Indexers) cache.Indexers {
	if indexers == nil {
		return nil
	}
	out := make(cache.Indexers, len(indexers))
	for name, f := range indexers {
		out[name] = cache.IndexFunc(f)
	}
	return out
}

// clientGoIndexers is indexers as client-go's Indexers.
func clientGoIndexers(indexers cache.Indexers) toolscache.Indexers {
	if indexers == nil {
		return nil
	}
	out := make(toolscache.Indexers, len(indexers))
	for name, f := range indexers {
		out[name] = toolscache.IndexFunc(f)
	}
	return out
}
