package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync/atomic"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	toolscache "k8s.io/client-go/tools/cache"
	crcache "sigs.k8s.io/controller-runtime/pkg/cache"

	"github.com/informer-gen/informer-gen/controllerruntime"
)

// The controller-runtime variants: one Pod informer of
// controller-runtime's cache (cache.New with client-go's scheme, then
// GetInformer for &corev1.Pod{}), timed until the cache's
// WaitForCacheSync returns.
//
//   - cr: controller-runtime's defaults (client-go's shared informer);
//   - cr-strip: the same with cache.TransformStripManagedFields() as
//     DefaultTransform, the lever controller-runtime offers;
//   - cr-ours: the same with NewInformer from package controllerruntime
//     of this project (informer-gen's informer, compacting with the
//     walks of k8s.io/api, managedFields kept as controller-runtime
//     keeps them);
//   - cr-ours-strip: cr-ours with cr-strip's transform, what a user who
//     strips managedFields today gets by adding NewInformer.
const (
	variantCR          = "cr"
	variantCRStrip     = "cr-strip"
	variantCROurs      = "cr-ours"
	variantCROursStrip = "cr-ours-strip"
)

// crVariants are the controller-runtime variants in report order.
var crVariants = []string{variantCR, variantCRStrip, variantCROurs, variantCROursStrip}

// crOptions are the cache options of a controller-runtime variant:
// controller-runtime's defaults but for what the variant changes.
func crOptions(variant string) crcache.Options {
	opts := crcache.Options{Scheme: clientgoscheme.Scheme}
	switch variant {
	case variantCRStrip:
		opts.DefaultTransform = crcache.TransformStripManagedFields()
	case variantCROurs:
		opts.NewInformer = controllerruntime.NewInformer
	case variantCROursStrip:
		opts.DefaultTransform = crcache.TransformStripManagedFields()
		opts.NewInformer = controllerruntime.NewInformer
	}
	return opts
}

// startCR builds controller-runtime's cache over cfg with the options of
// variant, gets its Pod informer and starts the cache. The informer
// counts as synced once the cache's WaitForCacheSync has returned true
// (it polls every 100 ms, as client-go's WaitForCacheSync does). The
// REST mapper's discovery happens in GetInformer, before the returned
// time.
func startCR(variant string, cfg *rest.Config) (started, time.Time, error) {
	c, err := crcache.New(cfg, crOptions(variant))
	if err != nil {
		return started{}, time.Time{}, fmt.Errorf("variant %s: controller-runtime's cache.New: %w", variant, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	inf, err := c.GetInformer(ctx, &corev1.Pod{})
	if err != nil {
		cancel()
		return started{}, time.Time{}, fmt.Errorf("variant %s: GetInformer for Pods: %w", variant, err)
	}
	store, ok := inf.(interface{ GetStore() toolscache.Store })
	if !ok {
		cancel()
		return started{}, time.Time{}, fmt.Errorf("variant %s: the Pod informer %T has no GetStore", variant, inf)
	}
	w := &crInformer{store: store.GetStore()}
	done := make(chan error, 1)
	t0 := time.Now()
	go func() { done <- c.Start(ctx) }()
	go func() { w.synced.Store(c.WaitForCacheSync(ctx)) }()
	stop := func() {
		cancel()
		if err := <-done; err != nil && !errors.Is(err, context.Canceled) {
			fmt.Fprintf(os.Stderr, "variant %s: the cache stopped with %v\n", variant, err)
		}
	}
	return started{w, stop}, t0, nil
}

// crInformer reads the Pod informer of a controller-runtime cache: synced
// after its WaitForCacheSync, its objects from the informer's store (as
// the other variants are read; the cache's reader would deep-copy them).
type crInformer struct {
	store toolscache.Store
	// synced is set by the goroutine that waits for the cache.
	synced atomic.Bool
}

func (c *crInformer) HasSynced() bool { return c.synced.Load() }
func (c *crInformer) keys() []string  { return c.store.ListKeys() }
func (c *crInformer) get(key string) (metav1.Object, bool) {
	obj, ok, _ := c.store.GetByKey(key)
	if !ok {
		return nil, false
	}
	m, ok := obj.(metav1.Object)
	return m, ok
}
