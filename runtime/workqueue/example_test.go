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
