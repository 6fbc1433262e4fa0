package generators

import (
	"path/filepath"
	"testing"
)

func TestMatchesAnyFollowsGoListPatterns(t *testing.T) {
	dir := filepath.FromSlash("/src/m")
	pkgDir := filepath.FromSlash("/src/m/pkg/generated/clientset/versioned")
	const pkgPath = "example.com/m/pkg/generated/clientset/versioned"
	tests := []struct {
		patterns []string
		want     bool
	}{
		{[]string{"./..."}, true},
		{[]string{"./pkg/..."}, true},
		{[]string{"./pkg/generated/clientset/versioned"}, true},
		{[]string{"./pkg/generated/clientset/versioned/..."}, true},
		{[]string{"./apis/..."}, false},
		{[]string{"./pkg/generated/clientset"}, false},
		{[]string{"./pkg/gen"}, false},
		{[]string{"./pkg/gen..."}, true},
		{[]string{"example.com/m/..."}, true},
		{[]string{pkgPath}, true},
		{[]string{"example.com/m/apis/...", "example.com/m/pkg/generated/clientset/versioned/..."}, true},
		{[]string{"example.com/m/pkg/generated/clientset"}, false},
		{[]string{"../m/pkg/..."}, true},
	}
	for _, tt := range tests {
		if got := matchesAny(dir, tt.patterns, pkgPath, pkgDir); got != tt.want {
			t.Errorf("matchesAny(%q) = %v, want %v", tt.patterns, got, tt.want)
		}
	}
}
