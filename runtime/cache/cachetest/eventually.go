package cachetest

import (
	"testing"
	"time"
)

// EventuallyLimit is how long Eventually and EventuallyExplained wait for
// their condition: only a broken program under test reaches it.
const EventuallyLimit = time.Minute

// Eventually calls cond until it reports true and fails t, naming what it
// waited for, when that takes longer than EventuallyLimit. It is the wait
// of this project's tests for a state reached asynchronously (an informer
// caught up with its server, a handler called): cond is called at once,
// then at intervals growing from a millisecond to 10ms.
//
// Call it from the test's goroutine (it calls t.Fatalf).
func Eventually(t testing.TB, what string, cond func() bool) {
	t.Helper()
	if !poll(EventuallyLimit, cond) {
		t.Fatalf("timed out after %v waiting for %s", EventuallyLimit, what)
	}
}

// EventuallyExplained is Eventually for a condition that explains what is
// still missing: on failure the message carries cond's last explanation.
func EventuallyExplained(t testing.TB, cond func() (done bool, missing string)) {
	t.Helper()
	var missing string
	if !poll(EventuallyLimit, func() bool {
		var done bool
		done, missing = cond()
		return done
	}) {
		t.Fatalf("condition not reached within %v: %s", EventuallyLimit, missing)
	}
}

// poll calls cond until it reports true (poll returns true) or limit
// passed (false).
func poll(limit time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(limit)
	for interval := time.Millisecond; !cond(); interval = min(2*interval, 10*time.Millisecond) {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(interval)
	}
	return true
}
