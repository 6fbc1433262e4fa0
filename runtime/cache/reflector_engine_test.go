package cache

import (
	"errors"

	apierrors "k8s.io/apimachinery/pkg/api/errors"

	"github.com/informer-gen/informer-gen/runtime/cache/internal/reflector"
)

// The reflector engine's constants and errors under the names this
// package's tests of the Reflector use (the engine is
// internal/reflector).
const (
	defaultPageSize       = reflector.DefaultPageSize
	veryShortWatch        = reflector.VeryShortWatch
	maxBurst              = reflector.MaxBurst
	firstListBatch        = reflector.FirstListBatch
	defaultBackoffInitial = reflector.DefaultBackoffInitial
	defaultBackoffMax     = reflector.DefaultBackoffMax
)

var errWatchIdle = reflector.ErrWatchIdle

// isVeryShortWatch reports whether err is or wraps a *VeryShortWatchError.
func isVeryShortWatch(err error) bool {
	var e *VeryShortWatchError
	return errors.As(err, &e)
}

// isExpiredError reports a 410: the resourceVersion is older than the
// server's history.
func isExpiredError(err error) bool {
	return apierrors.IsResourceExpired(err) || apierrors.IsGone(err)
}
