package cache

import (
	"strconv"
	"sync"
	"time"
)

// GaugeMetric is a metric whose value is set. Implementations must be safe
// for concurrent use and must not block.
type GaugeMetric interface {
	Set(float64)
}

// CounterMetric is a metric that counts. Same contract as GaugeMetric.
type CounterMetric interface {
	Inc()
}

// SummaryMetric observes values into a summary. Same contract as
// GaugeMetric.
type SummaryMetric interface {
	Observe(float64)
}

// HistogramMetric observes values into a histogram. Same contract as
// GaugeMetric.
type HistogramMetric interface {
	Observe(float64)
}

// InformerMetricsProvider creates the metrics client-go's informers publish
// per InformerNameAndResource. Informers built with a reserved
// SharedIndexInformerOptions.Identifier publish through it the number of
// keys queued and the resourceVersion of the cache (when it is an
// integer). Processing latency is not measured per event by this runtime:
// NewProcessingLatencyMetric is called but never observed. The richer
// per-informer Metrics interface (list and watch outcomes, handler lag) is
// this runtime's own.
type InformerMetricsProvider interface {
	NewQueuedItemMetric(id InformerNameAndResource) GaugeMetric
	NewProcessingLatencyMetric(id InformerNameAndResource) HistogramMetric
	NewStoreResourceVersionMetric(id InformerNameAndResource) GaugeMetric
}

var globalInformerMetrics struct {
	once     sync.Once
	provider InformerMetricsProvider
}

// SetInformerMetricsProvider sets the provider of informers created later
// without their own SharedIndexInformerOptions.InformerMetricsProvider.
// Only the first call has an effect.
func SetInformerMetricsProvider(provider InformerMetricsProvider) {
	globalInformerMetrics.once.Do(func() { globalInformerMetrics.provider = provider })
}

// globalInformerProvider returns the provider SetInformerMetricsProvider
// set (nil when none) and freezes it: later calls have no effect.
func globalInformerProvider() InformerMetricsProvider {
	globalInformerMetrics.once.Do(func() {})
	return globalInformerMetrics.provider
}

// informerProviderMetrics publishes an informer's measurements through an
// InformerMetricsProvider while its identifier stays reserved.
type informerProviderMetrics struct {
	id     InformerNameAndResource
	queued GaugeMetric
	rv     GaugeMetric
}

// newInformerProviderMetrics returns nil when there is nothing to publish:
// no provider, or an identifier that is not reserved.
func newInformerProviderMetrics(id InformerNameAndResource, provider InformerMetricsProvider) Metrics {
	if provider == nil {
		provider = globalInformerProvider()
	}
	if provider == nil || !id.Reserved() {
		return nil
	}
	provider.NewProcessingLatencyMetric(id)
	return &informerProviderMetrics{
		id:     id,
		queued: provider.NewQueuedItemMetric(id),
		rv:     provider.NewStoreResourceVersionMetric(id),
	}
}

func (m *informerProviderMetrics) ListDone(int, time.Duration, error) {}
func (m *informerProviderMetrics) WatchStarted()                      {}
func (m *informerProviderMetrics) WatchEnded(int, error)              {}
func (m *informerProviderMetrics) EventsProcessed(int)                {}
func (m *informerProviderMetrics) HandlerLag(string, int)             {}
func (m *informerProviderMetrics) HandlerPanicked(string)             {}

func (m *informerProviderMetrics) ResourceVersion(rv string) {
	if !m.id.Reserved() {
		return
	}
	setResourceVersionMetric(m.rv, rv)
}

// setResourceVersionMetric sets g to rv when rv is an integer, as
// client-go does: of a longer rv only the last 15 digits count, so that
// the value stays exact in a float64; "" counts as 0.
func setResourceVersionMetric(g GaugeMetric, rv string) {
	if len(rv) > 15 {
		rv = rv[len(rv)-15:]
	}
	if rv == "" {
		g.Set(0)
		return
	}
	if v, err := strconv.ParseInt(rv, 10, 64); err == nil {
		g.Set(float64(v))
	}
}

func (m *informerProviderMetrics) QueueDepth(depth int) {
	if m.id.Reserved() {
		m.queued.Set(float64(depth))
	}
}

// teeMetrics sends every measurement to two Metrics.
type teeMetrics [2]Metrics

func (t teeMetrics) ListDone(items int, took time.Duration, err error) {
	t[0].ListDone(items, took, err)
	t[1].ListDone(items, took, err)
}
func (t teeMetrics) WatchStarted() { t[0].WatchStarted(); t[1].WatchStarted() }
func (t teeMetrics) WatchEnded(events int, err error) {
	t[0].WatchEnded(events, err)
	t[1].WatchEnded(events, err)
}
func (t teeMetrics) ResourceVersion(rv string) { t[0].ResourceVersion(rv); t[1].ResourceVersion(rv) }
func (t teeMetrics) QueueDepth(depth int)      { t[0].QueueDepth(depth); t[1].QueueDepth(depth) }
func (t teeMetrics) EventsProcessed(n int)     { t[0].EventsProcessed(n); t[1].EventsProcessed(n) }
func (t teeMetrics) HandlerLag(handler string, pending int) {
	t[0].HandlerLag(handler, pending)
	t[1].HandlerLag(handler, pending)
}
func (t teeMetrics) HandlerPanicked(handler string) {
	t[0].HandlerPanicked(handler)
	t[1].HandlerPanicked(handler)
}

// combineMetrics returns a Metrics sending to both a and b, either of
// which may be nil.
func combineMetrics(a, b Metrics) Metrics {
	switch {
	case a == nil:
		return b
	case b == nil:
		return a
	}
	return teeMetrics{a, b}
}
