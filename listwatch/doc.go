// Package listwatch provides the two k8s.io/client-go/tools/cache names
// that need client-go's REST client, which informer-gen's runtime/cache
// cannot declare since it never imports client-go: Getter and
// NewListWatchFromClient (with NewFilteredListWatchFromClient). They
// return a runtime/cache ListWatch.
//
// It is its own module, so that only projects using these functions
// depend on client-go through informer-gen. Code ported from client-go by
// rewriting the import of k8s.io/client-go/tools/cache calls
// listwatch.NewListWatchFromClient instead of cache.NewListWatchFromClient:
//
//	lw := listwatch.NewListWatchFromClient(client.CoreV1().RESTClient(), "pods", metav1.NamespaceAll, fields.Everything())
//	informer := cache.NewSharedIndexInformer(lw, &v1.Pod{}, 0, cache.Indexers{})
package listwatch
