package cache_test

import (
	"context"
	"fmt"
	"sync"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/informer-gen/informer-gen/runtime/cache"
)

// exampleServer is a ListerWatcher over a fixed list of objects (PartialObjectMetadata here) whose
// watch the example drives by hand; real code gets its ListerWatcher from
// generated code (NewFilteredXxxInformer) or a clientset.
func exampleServer(rv string, names ...string) (*cache.ListWatch, *watch.FakeWatcher) {
	list := &metav1.PartialObjectMetadataList{ListMeta: metav1.ListMeta{ResourceVersion: rv}}
	for _, n := range names {
		list.Items = append(list.Items, metav1.PartialObjectMetadata{ObjectMeta: metav1.ObjectMeta{Namespace: "team-a", Name: n, ResourceVersion: rv}})
	}
	w := watch.NewFake()
	return &cache.ListWatch{
		ListWithContextFunc: func(context.Context, metav1.ListOptions) (runtime.Object, error) { return list, nil },
		WatchFuncWithContext: func(context.Context, metav1.ListOptions) (watch.Interface, error) {
			return w, nil
		},
	}, w
}

// A shared informer lists, then watches, keeps its indexer up to date and
// tells each handler of every change. Handlers run on their own goroutine,
// one notification at a time; the indexer is safe to read from anywhere.
func ExampleNewSharedIndexInformer() {
	lw, w := exampleServer("10", "a", "b")
	informer := cache.NewSharedIndexInformer(lw, &metav1.PartialObjectMetadata{}, 0,
		cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})

	var mu sync.Mutex
	var seen []string
	deleted := make(chan struct{})
	_, err := informer.AddEventHandler(cache.ResourceEventHandlerDetailedFuncs{
		AddFunc: func(obj any, isInInitialList bool) {
			mu.Lock()
			defer mu.Unlock()
			seen = append(seen, fmt.Sprintf("add %s initial=%t", obj.(*metav1.PartialObjectMetadata).Name, isInInitialList))
		},
		DeleteFunc: func(obj any) {
			if tombstone, ok := obj.(cache.DeletedFinalStateUnknown); ok {
				obj = tombstone.Obj
			}
			mu.Lock()
			defer mu.Unlock()
			seen = append(seen, "delete "+obj.(*metav1.PartialObjectMetadata).Name)
			close(deleted)
		},
	})
	if err != nil {
		panic(err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go informer.RunWithContext(ctx)
	if !cache.WaitForCacheSync(ctx.Done(), informer.HasSynced) {
		panic("not synced")
	}
	w.Delete(&metav1.PartialObjectMetadata{ObjectMeta: metav1.ObjectMeta{Namespace: "team-a", Name: "a", ResourceVersion: "11"}})
	<-deleted

	inTeamA, _ := informer.GetIndexer().ByIndex(cache.NamespaceIndex, "team-a")
	mu.Lock()
	defer mu.Unlock()
	fmt.Println(seen)
	fmt.Println(len(inTeamA), "left in team-a")
	// Output:
	// [add a initial=true add b initial=true delete a]
	// 1 left in team-a
}

// Typed handlers receive the informer's type, not any: no casts, and a
// delete hands over a DeletedObject that says whether the final state is
// known.
func ExampleTypedResourceEventHandlerFuncs() {
	lw, w := exampleServer("10", "a")
	informer := cache.NewTypedSharedIndexInformer[*metav1.PartialObjectMetadata](
		cache.NewSharedIndexInformer(lw, &metav1.PartialObjectMetadata{}, 0, cache.Indexers{}))

	events := make(chan string, 3)
	_, err := informer.AddTypedEventHandler(cache.TypedResourceEventHandlerFuncs[*metav1.PartialObjectMetadata]{
		AddFunc: func(obj *metav1.PartialObjectMetadata) { events <- "add " + obj.Name },
		UpdateFunc: func(oldObj, newObj *metav1.PartialObjectMetadata) {
			events <- fmt.Sprintf("update %s labels %v -> %v", newObj.Name, oldObj.Labels, newObj.Labels)
		},
		DeleteFunc: func(d cache.DeletedObject[*metav1.PartialObjectMetadata]) {
			events <- fmt.Sprintf("delete %s final state known=%t", d.GetObjectName(), d.FinalStateUnknown == nil)
		},
	})
	if err != nil {
		panic(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go informer.RunWithContext(ctx)
	fmt.Println(<-events)
	w.Modify(&metav1.PartialObjectMetadata{ObjectMeta: metav1.ObjectMeta{Namespace: "team-a", Name: "a", ResourceVersion: "11", Labels: map[string]string{"tier": "web"}}})
	fmt.Println(<-events)
	w.Delete(&metav1.PartialObjectMetadata{ObjectMeta: metav1.ObjectMeta{Namespace: "team-a", Name: "a", ResourceVersion: "12"}})
	fmt.Println(<-events)
	// Output:
	// add a
	// update a labels map[] -> map[tier:web]
	// delete team-a/a final state known=true
}
