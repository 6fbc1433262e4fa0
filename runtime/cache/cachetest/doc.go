// Package cachetest is an in-memory, scripted API server for one resource,
// for testing code built on the informers of runtime/cache (or any client
// of a ListerWatcher) without a cluster: a controller's unit tests, the
// informer runtime's own tests, and the conformance suite that runs
// client-go's informer against runtime/cache's.
//
// A Server holds the objects of one resource and a resourceVersion
// counter; Add, Update and Delete change them, each change getting the
// next resourceVersion and going to a history that watches replay and
// follow. The Server is a runtime/cache ListerWatcher (and
// ListerWatcherWithContext): hand it to cache.NewSharedIndexInformer, or
// to a generated informer's ListWatch, in place of a clientset.
//
// It honours what informers rely on from kube-apiserver:
//
//   - lists at resourceVersion "" page with Limit and Continue; "0" and
//     NotOlderThan lists are served whole, as from the watch cache; Exact
//     lists see the past state;
//   - a watch from a resourceVersion replays the changes after it, or
//     fails with a 410 Gone error event when that resourceVersion is older
//     than the history kept (Compact, SetHistoryLimit, ExpireWatches);
//   - bookmarks (Bookmark) for watches that allow them, and the watch-list
//     stream (SendInitialEvents, ending with the initial-events-end
//     bookmark);
//   - label selectors, and field selectors on metadata.name and
//     metadata.namespace;
//   - a resourceVersion it has not reached fails with "Too large resource
//     version".
//
// A test scripts failures with FailLists and FailWatches (the next calls
// return an error), CloseWatches (every watch ends cleanly, as when a
// connection drops: clients resume from their last resourceVersion) and
// ExpireWatches (every watch ends with 410 Gone and changes can be made
// that clients see only by relisting).
//
// # In a controller's unit test
//
//	srv := cachetest.NewServer(&corev1.ConfigMapList{})
//	srv.Add(&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "a"}})
//	informer := cache.NewSharedIndexInformer(srv, &corev1.ConfigMap{}, 0, cache.Indexers{})
//	// register the controller's handlers, run the informer, wait for sync,
//	// then change objects with srv.Update and srv.Delete and check what the
//	// controller did; srv.CloseWatches and srv.ExpireWatches check that it
//	// survives watch disruptions and relists.
//
// When every goroutine of a test, the informer's included, runs inside a
// testing/synctest bubble, the informer's back-off and resync timers run
// on the bubble's fake clock and the test does not wait for them.
//
// # Helpers for tests
//
// Eventually (and EventuallyExplained) is the one wait of the project's
// tests for a state reached asynchronously: it polls a condition and
// fails the test, naming what it waited for, after EventuallyLimit.
// Scale(small, large) sizes a test: small in the test command
// (hack/test.sh), large in the scale job (SCALE=1).
//
// All Server methods are safe for concurrent use. The package depends on
// k8s.io/apimachinery and the standard library only: it imports neither
// runtime/cache (whose own tests use it) nor k8s.io/client-go.
package cachetest
