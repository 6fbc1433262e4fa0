package cachetest_test

import (
	"context"
	"fmt"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/informer-gen/informer-gen/runtime/cache"
	"github.com/informer-gen/informer-gen/runtime/cache/cachetest"
)

// A controller's handler, run by an informer against a Server, sees an
// object added before the informer started and the changes made after.
func Example() {
	srv := cachetest.NewServer(&metav1.PartialObjectMetadataList{})
	if _, err := srv.Add(object("ns", "a")); err != nil {
		panic(err)
	}

	informer := cache.NewSharedIndexInformer(srv, &metav1.PartialObjectMetadata{}, 0, cache.Indexers{})
	seen := make(chan string, 10)
	if _, err := informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any) { seen <- "add " + obj.(*metav1.PartialObjectMetadata).Name },
		DeleteFunc: func(obj any) { seen <- "delete " + obj.(*metav1.PartialObjectMetadata).Name },
	}); err != nil {
		panic(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer srv.Wait()
	defer cancel()
	go informer.RunWithContext(ctx)
	if !cache.WaitForCacheSync(ctx.Done(), informer.HasSynced) {
		panic("not synced")
	}
	fmt.Println(<-seen)

	// A cut connection does not lose changes: the informer resumes its
	// watch from the last resourceVersion it saw.
	srv.CloseWatches()
	if _, err := srv.Delete("ns", "a"); err != nil {
		panic(err)
	}
	fmt.Println(<-seen)
	// Output:
	// add a
	// delete a
}

func object(namespace, name string) *metav1.PartialObjectMetadata {
	return &metav1.PartialObjectMetadata{ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name}}
}
