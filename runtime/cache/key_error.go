package cache

import (
	"errors"
	"fmt"
)

// KeyError is the error the stores and queues kept for client-go's older
// API (the FIFO, RealFIFO, expiration stores) return when their KeyFunc
// fails on an object: it names the object and wraps the KeyFunc's error.
type KeyError struct {
	Obj any
	Err error
}

// Error gives client-go's message: "couldn't create key for object <obj>:
// <err>".
func (k KeyError) Error() string {
	return fmt.Sprintf("couldn't create key for object %+v: %v", k.Obj, k.Err)
}

// Unwrap returns the KeyFunc's error.
func (k KeyError) Unwrap() error {
	return k.Err
}

// ErrZeroLengthDeltasObject is returned in a KeyError if a Deltas object
// with 0 length is encountered: DeltaFIFO.KeyOf and a RealFIFO's key of an
// empty Deltas. It should not happen.
var ErrZeroLengthDeltasObject = errors.New("0 length Deltas object; can't get key")
