// Package bench measures informer-gen's runtime side by side with
// client-go's tools/cache on identical in-memory input: time to sync,
// update events per second to one and four handlers, heap per cached
// object, heap growth with a stalled handler, and lister List and Get.
//
// The benchmarks (go test -bench . -benchmem) run at full size (100k
// ConfigMaps in 100 namespaces, 200k updates) unless -size=small is given;
// the tests are a smoke run at small size that checks correctness. The
// cmd/benchreport program runs the alternating rounds behind
// docs/benchmarks.md.
package bench
