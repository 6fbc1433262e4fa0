package delivery

import (
	"strings"
	"testing"
)

// TestListenerHandlerPanicPropagatesWhenReallyCrash pins that recovering
// handler panics honours utilruntime.ReallyCrash: when set (the default),
// the panic still crashes the handler's goroutine.
func TestListenerHandlerPanicPropagatesWhenReallyCrash(t *testing.T) {
	setReallyCrash(t, true)
	captureLogs(t)
	l := newListener(onAdd(func(any, bool) { panic("boom") }), "h", 0)
	l.initialPending.Add(1)
	defer func() {
		if r := recover(); r != "boom" {
			t.Fatalf("recovered %v, want the handler's panic", r)
		}
		if n := l.initialPending.Load(); n != 0 {
			t.Fatalf("initialPending = %d after the panic, want 0", n)
		}
	}()
	l.call(&Notification{Kind: Add, Initial: true, New: testObject("ns", "a", "1")})
	t.Fatal("the panic did not propagate")
}

// TestListenerPanicLogNamesAnUnnamedHandlerByType pins that the panic log
// of a handler registered without a name still tells which one it was.
func TestListenerPanicLogNamesAnUnnamedHandlerByType(t *testing.T) {
	setReallyCrash(t, false)
	logs := captureLogs(t)
	l := newListener(onAdd(func(any, bool) { panic("boom") }), "", 0)
	l.call(&Notification{Kind: Add, New: testObject("ns", "a", "1")})
	if out := logs(); !strings.Contains(out, `"handler"="delivery.onAdd"`) {
		t.Fatalf("log does not name the handler by its type:\n%s", out)
	}
}
