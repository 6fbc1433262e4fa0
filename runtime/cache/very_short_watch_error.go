package cache

import (
	"errors"
	"fmt"
)

// VeryShortWatchError is returned when the watch result channel is closed
// within one second, without having sent any events. The Reflector reports
// it to its WatchErrorHandler and watches again after a back-off.
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
