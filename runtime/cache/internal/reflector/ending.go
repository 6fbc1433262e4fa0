package reflector

import (
	"errors"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"

	"github.com/informer-gen/informer-gen/runtime/cache/internal/protocol"
)

// The reflector's protocol, its state value and its transition table, is
// package internal/protocol (state.go there). This file classifies how a
// step's request ended, in the protocol's vocabulary (protocol.Ending),
// from this package's errors.

// healthyWatch is how long a watch must live to count as a healthy period
// even if it never moved the position (a quiet collection).
const healthyWatch = time.Minute

// watchEnding classifies how a watch ended: err is what consume returned
// (nil for a clean close), lived how long it was open, got what it
// delivered.
func watchEnding(err error, lived time.Duration, got tally) protocol.Ending {
	switch {
	case errors.Is(err, errReshard), errors.Is(err, errRelistRequested):
		return protocol.EndReshard
	case err == nil && (got.changes > 0 || lived >= VeryShortWatch):
		return protocol.EndClosed
	case err == nil && got.events > 0:
		return protocol.EndClosedEarly
	case err == nil, isVeryShortWatch(err):
		return protocol.EndVeryShort
	case errors.Is(err, ErrWatchIdle):
		return protocol.EndIdle
	}
	return errorEnding(err)
}

// errorEnding classifies a failed request.
func errorEnding(err error) protocol.Ending {
	switch {
	case isExpiredError(err), isTooLargeResourceVersionError(err):
		return protocol.EndExpired
	case isRetriableWatchError(err):
		return protocol.EndTransient
	}
	return protocol.EndFailed
}

// watchListEnding classifies how a watch list ended.
func watchListEnding(err error) protocol.Ending {
	switch {
	case err == nil:
		return protocol.EndStored
	case errors.Is(err, errWatchListStalled), errors.Is(err, errInitialEventsCut):
		return protocol.EndStalled
	case errors.Is(err, errNoInitialEventsEnd), apierrors.IsBadRequest(err),
		apierrors.IsInvalid(err), apierrors.IsMethodNotSupported(err):
		return protocol.EndUnsupported
	}
	return errorEnding(err)
}
