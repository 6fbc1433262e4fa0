package apicompat

import "strings"

// Mapping relates upstream import paths to ours. A key maps the package of
// that exact path and every package below it: with
// "k8s.io/client-go/informers" -> "example.com/gen/informers",
// "k8s.io/client-go/informers/core/v1" maps to
// "example.com/gen/informers/core/v1". The longest matching key wins. A
// Mapping is read-only once in use.
type Mapping map[string]string

// Map returns our path for upstream path, and whether the Mapping covers it.
func (m Mapping) Map(path string) (string, bool) {
	best := ""
	found := false
	for from := range m {
		if (path == from || strings.HasPrefix(path, from+"/")) && len(from) >= len(best) {
			best, found = from, true
		}
	}
	if !found {
		return "", false
	}
	return m[best] + strings.TrimPrefix(path, best), true
}

// ClientGoRuntime maps client-go's informer runtime packages to the
// informer-gen runtime packages that stand in for them: tools/cache to
// runtime/cache and the generic listers helpers (k8s.io/client-go/listers)
// to runtime/lister. util/workqueue is not mapped: runtime/workqueue has
// its own API, and ported code keeps client-go's workqueue. To compare
// generated code, add the more specific keys of the generated packages
// (k8s.io/client-go/listers/core/v1 and so on), which win over these.
func ClientGoRuntime() Mapping {
	return Mapping{
		"k8s.io/client-go/tools/cache": "github.com/informer-gen/informer-gen/runtime/cache",
		"k8s.io/client-go/listers":     "github.com/informer-gen/informer-gen/runtime/lister",
	}
}
