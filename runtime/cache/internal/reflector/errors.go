package reflector

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilnet "k8s.io/apimachinery/pkg/util/net"
	"k8s.io/klog/v2"
)

// VeryShortWatchError is returned when the watch result channel is closed
// within one second, without having sent any events. The engine reports
// it to its Config.OnError and watches again after a back-off.
// runtime/cache's VeryShortWatchError is this type.
type VeryShortWatchError struct {
	// Name of the Reflector
	Name string
}

// Error implements the error interface, with client-go's message.
func (e *VeryShortWatchError) Error() string {
	return fmt.Sprintf("very short watch: %s: Unexpected watch close - "+
		"watch lasted less than a second and no items received", e.Name)
}

// isVeryShortWatch reports whether err is or wraps a *VeryShortWatchError.
func isVeryShortWatch(err error) bool {
	var e *VeryShortWatchError
	return errors.As(err, &e)
}

// ErrWatchIdle ends a watch that delivered nothing for IdleTimeout.
var ErrWatchIdle = errors.New("watch delivered nothing for the idle timeout; restarting it")

// errRelistRequested ends a watch when the caller asked for a relist
// (Run.Relist).
var errRelistRequested = errors.New("a relist was requested to restore cached objects holding a mutated shared part")

// LogError logs err, the failure of the reflector named name, at the
// level its kind deserves (runtime/cache's DefaultWatchErrorHandler).
func LogError(ctx context.Context, name string, err error) {
	logger := klog.FromContext(ctx)
	switch {
	case isExpiredError(err):
		logger.V(4).Info("Watch closed: resourceVersion expired", "reflector", name, "err", err)
	case errors.Is(err, io.EOF), errors.Is(err, ErrWatchIdle):
		logger.V(4).Info("Watch closed", "reflector", name, "err", err)
	case errors.Is(err, errWatchListIgnored):
		logger.V(2).Info("The client does not stream lists; listing instead", "reflector", name, "err", err)
	case errors.Is(err, io.ErrUnexpectedEOF):
		logger.V(1).Info("Watch closed unexpectedly", "reflector", name, "err", err)
	default:
		logger.Error(err, "Failed to list or watch", "reflector", name)
	}
}

// isExpiredError reports a 410: the resourceVersion is older than the
// server's history.
func isExpiredError(err error) bool {
	return apierrors.IsResourceExpired(err) || apierrors.IsGone(err)
}

// isTooLargeResourceVersionError reports a resourceVersion the server has
// not reached yet.
func isTooLargeResourceVersionError(err error) bool {
	if apierrors.HasStatusCause(err, metav1.CauseTypeResourceVersionTooLarge) {
		return true
	}
	if !apierrors.IsTimeout(err) {
		return false
	}
	var status apierrors.APIStatus
	if !errors.As(err, &status) {
		return false
	}
	s := status.Status()
	if s.Details != nil {
		for _, c := range s.Details.Causes {
			if c.Message == "Too large resource version" {
				return true
			}
		}
	}
	return strings.Contains(s.Message, "Too large resource version")
}

// isRetriableWatchError reports transient failures after which the watch
// can resume from the same resourceVersion once the server recovers, with
// no need to relist.
func isRetriableWatchError(err error) bool {
	if isExpiredError(err) || isTooLargeResourceVersionError(err) {
		return false
	}
	return utilnet.IsConnectionRefused(err) || utilnet.IsConnectionReset(err) ||
		errors.Is(err, io.ErrUnexpectedEOF) ||
		apierrors.IsTooManyRequests(err) || apierrors.IsInternalError(err) ||
		apierrors.IsServiceUnavailable(err) || apierrors.IsServerTimeout(err) ||
		apierrors.IsTimeout(err)
}
