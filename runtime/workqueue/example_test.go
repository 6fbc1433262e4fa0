package workqueue_test

import (
	"context"
	"fmt"

	"github.com/informer-gen/informer-gen/runtime/workqueue"
)

func ExampleQueue() {
	q := workqueue.New(workqueue.Config[string]{Name: "example"})
	q.Add("default/a")
	q.Add("default/b")
	q.Add("default/a") // already queued: absorbed
	q.ShutDown()       // workers still get what was queued

	for {
		key, shutdown := q.Get()
		if shutdown {
			break
		}
		fmt.Println("reconcile", key)
		q.Forget(key)
		q.Done(key)
	}
	// Output:
	// reconcile default/a
	// reconcile default/b
}

func ExampleQueue_Run() {
	q := workqueue.New(workqueue.Config[string]{})
	ctx, cancel := context.WithCancel(context.Background())
	q.Add("default/a")
	q.Run(ctx, 1, func(ctx context.Context, key string) error {
		fmt.Println("reconcile", key)
		cancel() // stop after the first item
		return nil
	})
	// Output:
	// reconcile default/a
}

// Run's workers process the items still queued after ShutDownWithDrain;
// once its ctx is done instead, they stop after the items they hold.
func ExampleQueue_ShutDownWithDrain() {
	q := workqueue.New(workqueue.Config[string]{})
	q.Add("default/a")
	q.Add("default/b")
	q.ShutDownWithDrain() // nothing handed out yet: returns at once
	q.Add("default/c")    // ignored: shutting down
	q.Run(context.Background(), 1, func(_ context.Context, key string) error {
		fmt.Println("reconcile", key)
		return nil
	})
	// Output:
	// reconcile default/a
	// reconcile default/b
}
