package reflector

import (
	"fmt"
	"testing"
)

func TestVeryShortWatchErrorHasClientGosMessage(t *testing.T) {
	err := error(&VeryShortWatchError{Name: "pods"})
	want := "very short watch: pods: Unexpected watch close - watch lasted less than a second and no items received"
	if err.Error() != want {
		t.Fatalf("message %q, want %q", err.Error(), want)
	}
	if !isVeryShortWatch(fmt.Errorf("wrapped: %w", err)) || isVeryShortWatch(fmt.Errorf("other")) {
		t.Fatal("isVeryShortWatch does not follow wrapping")
	}
}
