package e2e

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	stablev1 "github.com/informer-gen/informer-gen/examples/crd/apis/stable/v1"
	"github.com/informer-gen/informer-gen/examples/crd/pkg/generated/clientset/versioned"
)

// workload creates, changes and deletes Widgets named <prefix>-<i>, spread
// round-robin over namespaces, with a few requests in flight at once.
type workload struct {
	cs         versioned.Interface
	namespaces []string
	prefix     string
	workers    int
}

func (w workload) ref(i int) (namespace, name string) {
	return w.namespaces[i%len(w.namespaces)], fmt.Sprintf("%s-%05d", w.prefix, i)
}

// each runs fn for every i in [from, to) on w.workers goroutines and
// returns the first error.
func (w workload) each(ctx context.Context, from, to int, fn func(ctx context.Context, i int) error) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	var next atomic.Int64
	next.Store(int64(from))
	var wg sync.WaitGroup
	for range max(w.workers, 1) {
		wg.Go(func() {
			for ctx.Err() == nil {
				i := int(next.Add(1) - 1)
				if i >= to {
					return
				}
				if err := fn(ctx, i); err != nil {
					cancel(err)
					return
				}
			}
		})
	}
	wg.Wait()
	if err := context.Cause(ctx); err != nil && err != context.Canceled {
		return err
	}
	return ctx.Err()
}

// pick selects the indexes a workload step acts on.
type pick func(i int) bool

// all picks every index.
func all(int) bool { return true }

// nth picks the indexes i with i%n == offset.
func nth(n, offset int) pick { return func(i int) bool { return i%n == offset } }

// create creates the picked Widgets of [from, to).
func (w workload) create(ctx context.Context, from, to int, p pick) error {
	return w.each(ctx, from, to, func(ctx context.Context, i int) error {
		if !p(i) {
			return nil
		}
		ns, name := w.ref(i)
		_, err := w.cs.StableV1().Widgets(ns).Create(ctx, &stablev1.Widget{
			ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns, Labels: map[string]string{"e2e": w.prefix}},
			Spec:       stablev1.WidgetSpec{Size: int32(i), Color: "red", Tags: []string{"created"}},
		}, metav1.CreateOptions{})
		if err != nil {
			return fmt.Errorf("create %s/%s: %w", ns, name, err)
		}
		return nil
	})
}

// update changes the spec of the picked Widgets of [from, to), and the
// status (subresource) of the even ones among them.
func (w workload) update(ctx context.Context, from, to int, p pick, size int32) error {
	return w.each(ctx, from, to, func(ctx context.Context, i int) error {
		if !p(i) {
			return nil
		}
		ns, name := w.ref(i)
		patch := fmt.Appendf(nil, `{"spec":{"size":%d,"color":"blue"}}`, size)
		if _, err := w.cs.StableV1().Widgets(ns).Patch(ctx, name, types.MergePatchType, patch, metav1.PatchOptions{}); err != nil {
			return fmt.Errorf("patch %s/%s: %w", ns, name, err)
		}
		if i%2 == 0 {
			status := fmt.Appendf(nil, `{"status":{"phase":"Ready","observedGeneration":%d}}`, size)
			if _, err := w.cs.StableV1().Widgets(ns).Patch(ctx, name, types.MergePatchType, status, metav1.PatchOptions{}, "status"); err != nil {
				return fmt.Errorf("patch status %s/%s: %w", ns, name, err)
			}
		}
		return nil
	})
}

// remove deletes the picked Widgets of [from, to).
func (w workload) remove(ctx context.Context, from, to int, p pick) error {
	return w.each(ctx, from, to, func(ctx context.Context, i int) error {
		if !p(i) {
			return nil
		}
		ns, name := w.ref(i)
		if err := w.cs.StableV1().Widgets(ns).Delete(ctx, name, metav1.DeleteOptions{}); err != nil {
			return fmt.Errorf("delete %s/%s: %w", ns, name, err)
		}
		return nil
	})
}
