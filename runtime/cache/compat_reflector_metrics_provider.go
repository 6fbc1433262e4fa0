package cache

import (
	"sync"

	"k8s.io/klog/v2"
)

// MetricsProvider generates various metrics used by the reflector.
//
// Neither client-go's Reflector (since v0.18) nor ours calls it: a
// Reflector's measurements go to ReflectorOptions.Metrics (a Metrics) and
// an informer's to SharedIndexInformerOptions.Metrics and
// InformerMetricsProvider. It is here for code written against
// client-go's tools/cache.
//
// Compatibility code, kept for code written against client-go: the informer
// does not use it.
type MetricsProvider interface {
	NewListsMetric(name string) CounterMetric
	NewListDurationMetric(name string) SummaryMetric
	NewItemsInListMetric(name string) SummaryMetric

	NewWatchesMetric(name string) CounterMetric
	NewShortWatchesMetric(name string) CounterMetric
	NewWatchDurationMetric(name string) SummaryMetric
	NewItemsInWatchMetric(name string) SummaryMetric

	NewLastResourceVersionMetric(name string) GaugeMetric
}

// reflectorMetricsProvider is what SetReflectorMetricsProvider set.
var reflectorMetricsProvider struct {
	once     sync.Once
	provider MetricsProvider
}

// SetReflectorMetricsProvider sets the metrics provider. Only the first
// call has an effect, as in client-go, and nothing uses the provider (see
// MetricsProvider): the call is logged at V(2).
func SetReflectorMetricsProvider(metricsProvider MetricsProvider) {
	reflectorMetricsProvider.once.Do(func() {
		reflectorMetricsProvider.provider = metricsProvider
		klog.V(2).Info("cache.SetReflectorMetricsProvider: the provider is kept but not used, as in client-go; " +
			"use ReflectorOptions.Metrics or SharedIndexInformerOptions.Metrics for reflector measurements")
	})
}
