package cache

import (
	"context"
	"testing"
	"time"

	"go.uber.org/goleak"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// A handler's HasSyncedChecker asked for before Run waits for nothing
// until the informer runs, and is done once the informer synced and the
// handler was given the initial list; one asked for after Run too. An
// informer that never runs leaves no goroutine waiting.
func TestHandlerCheckerWaitsOnlyWhileTheInformerRuns(t *testing.T) {
	tests := []struct {
		name      string
		askBefore bool // Done is first called before Run
		run       bool
	}{
		{"asked before Run, never run", true, false},
		{"asked before Run", true, true},
		{"asked while running", false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			verifyNoLeaks(t)
			lw := &ListWatch{
				ListWithContextFunc: func(context.Context, metav1.ListOptions) (runtime.Object, error) {
					return objectList("10", "", testObject("ns", "a", "1"), testObject("ns", "b", "2")), nil
				},
				WatchFuncWithContext: ignoringWatch(),
			}
			inf := NewSharedIndexInformerWithOptions(lw, &metav1.PartialObjectMetadata{}, SharedIndexInformerOptions{})
			reg, err := inf.AddEventHandler(ResourceEventHandlerFuncs{})
			if err != nil {
				t.Fatal(err)
			}
			checker := reg.HasSyncedChecker()
			if tt.askBefore {
				leaks := goleak.IgnoreCurrent()
				checker.Done()
				goleak.VerifyNone(t, leaks) // nothing waits before Run
			}
			if !tt.run {
				if IsDone(checker) {
					t.Fatal("done although the informer never ran")
				}
				return
			}
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan struct{})
			go func() { defer close(done); inf.RunWithContext(ctx) }()
			defer func() { cancel(); <-done }()
			select {
			case <-checker.Done():
			case <-time.After(waitLimit):
				t.Fatal("the handler's checker is not done after the informer synced")
			}
			if !reg.HasSynced() || !inf.HasSynced() {
				t.Fatalf("checker done with HasSynced %t, informer's %t", reg.HasSynced(), inf.HasSynced())
			}
		})
	}
}
