package cache

import (
	"sync/atomic"

	"k8s.io/klog/v2"
)

// ignoredOption is an option this package accepts, so that code written
// against client-go compiles, but does not use. The first time it is set
// while V(2) is enabled, it is logged at V(2) with the reason; after that
// it is not logged again in the process.
type ignoredOption struct {
	name, reason string
	// logged is set once the option was logged.
	logged atomic.Bool
}

// The options accepted and not used.
var (
	ignoredInformerMinWatchTimeout = &ignoredOption{
		name:   "InformerOptions.MinWatchTimeout",
		reason: "the informer's reflector asks for watch timeouts of 5 to 10 minutes",
	}
	ignoredMaxInternalErrorRetryDuration = &ignoredOption{
		name:   "Reflector.MaxInternalErrorRetryDuration",
		reason: "every watch failure is retried with back-off",
	}
	ignoredBackoffSteps = &ignoredOption{
		name:   "ReflectorOptions.Backoff.Steps",
		reason: "the reflector retries for as long as it runs",
	}
	ignoredDeltaFIFOLogger = &ignoredOption{
		name:   "DeltaFIFOOptions.Logger",
		reason: "the queue does not log",
	}
	ignoredThreadSafeStoreIndices = &ignoredOption{
		name:   "NewThreadSafeStore's indices",
		reason: "the store keeps its indexes in its own form, built from the indexers",
	}
)

// report logs, at V(2) and once per process, that the option was set and
// is not used.
func (o *ignoredOption) report(logger klog.Logger) {
	if !logger.V(2).Enabled() || !o.logged.CompareAndSwap(false, true) {
		return
	}
	logger.V(2).Info("Option accepted for client-go compatibility and not used", "option", o.name, "reason", o.reason)
}

// reportIgnoredOptions logs the options of r that are set and not used
// (see ignoredOption); RunWithContext calls it with its logger.
func (r *Reflector) reportIgnoredOptions(logger klog.Logger) {
	if r.MaxInternalErrorRetryDuration != 0 {
		ignoredMaxInternalErrorRetryDuration.report(logger)
	}
	if r.opts.Backoff != nil && r.opts.Backoff.Steps != 0 {
		ignoredBackoffSteps.report(logger)
	}
}
