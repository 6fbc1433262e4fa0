package cache

import "fmt"

// storeOptions collects the StoreOptions of one store.
type storeOptions struct {
	transform TransformFunc
	id        InformerNameAndResource
	provider  InformerMetricsProvider
}

// StoreOption configures a store made by NewStore or NewIndexer.
type StoreOption func(*storeOptions)

// WithTransformer makes the store pass every object given to Add, Update
// and Replace through transformer before storing it (Delete, Get and the
// reads are unaffected). An object the transformer fails on is not stored
// and the write returns the error.
func WithTransformer(transformer TransformFunc) StoreOption {
	return func(o *storeOptions) { o.transform = transformer }
}

// WithStoreMetrics makes the store publish its LastStoreSyncResourceVersion
// (when it is an integer) through metrics' NewStoreResourceVersionMetric,
// while identifier is reserved.
func WithStoreMetrics(identifier InformerNameAndResource, metrics InformerMetricsProvider) StoreOption {
	return func(o *storeOptions) { o.id, o.provider = identifier, metrics }
}

// withStoreOptions wraps s when opts ask for anything.
func withStoreOptions(s *threadSafeStore, opts []StoreOption) Indexer {
	var o storeOptions
	for _, opt := range opts {
		opt(&o)
	}
	if o.transform == nil && (o.provider == nil || !o.id.Reserved()) {
		return s
	}
	w := &optionStore{threadSafeStore: s, transform: o.transform, id: o.id}
	if o.provider != nil && o.id.Reserved() {
		w.rvMetric = o.provider.NewStoreResourceVersionMetric(o.id)
	}
	return w
}

// optionStore is a threadSafeStore with a transformer and/or a
// resourceVersion metric. Safe for concurrent use.
type optionStore struct {
	*threadSafeStore
	transform TransformFunc
	id        InformerNameAndResource
	rvMetric  GaugeMetric
}

func (w *optionStore) transformed(obj any) (any, error) {
	if w.transform == nil {
		return obj, nil
	}
	out, err := w.transform(obj)
	if err != nil {
		return nil, fmt.Errorf("cache: transforming %T: %w", obj, err)
	}
	return out, nil
}

// Add stores the transformed obj.
func (w *optionStore) Add(obj any) error {
	obj, err := w.transformed(obj)
	if err != nil {
		return err
	}
	return w.threadSafeStore.Add(obj)
}

// Update stores the transformed obj.
func (w *optionStore) Update(obj any) error {
	obj, err := w.transformed(obj)
	if err != nil {
		return err
	}
	return w.threadSafeStore.Update(obj)
}

// Replace replaces the content with the transformed list.
func (w *optionStore) Replace(list []any, resourceVersion string) error {
	if w.transform != nil {
		out := make([]any, len(list))
		for i, obj := range list {
			t, err := w.transformed(obj)
			if err != nil {
				return err
			}
			out[i] = t
		}
		list = out
	}
	if err := w.threadSafeStore.Replace(list, resourceVersion); err != nil {
		return err
	}
	w.publish()
	return nil
}

// Bookmark records rv and publishes it.
func (w *optionStore) Bookmark(rv string) {
	w.threadSafeStore.Bookmark(rv)
	w.publish()
}

func (w *optionStore) publish() {
	if w.rvMetric == nil || !w.id.Reserved() {
		return
	}
	setResourceVersionMetric(w.rvMetric, w.LastStoreSyncResourceVersion())
}
