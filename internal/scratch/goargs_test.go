package scratch

import (
	"slices"
	"testing"
)

func TestGoArgsAddsRaceToCompilationsOfPackagesOnly(t *testing.T) {
	race := []string{"-race"}
	if !Race {
		race = nil
	}
	tests := []struct {
		name string
		args []string
		want []string
	}{
		{"build", []string{"build", "./..."}, slices.Concat([]string{"build"}, race, []string{"./..."})},
		{"vet", []string{"vet", "./pkg"}, slices.Concat([]string{"vet"}, race, []string{"./pkg"})},
		{"test", []string{"test", "-count=1", "./..."}, slices.Concat([]string{"test"}, race, []string{"-count=1", "./..."})},
		{"a tool binary", []string{"build", "-o", "bin/informer-gen", "./cmd/informer-gen"}, []string{"build", "-o", "bin/informer-gen", "./cmd/informer-gen"}},
		{"a test with -race", []string{"test", "-race", "./..."}, []string{"test", "-race", "./..."}},
		{"mod tidy", []string{"mod", "tidy"}, []string{"mod", "tidy"}},
		{"list", []string{"list", "-m", "all"}, []string{"list", "-m", "all"}},
		{"run", []string{"run", "./cmd/x"}, []string{"run", "./cmd/x"}},
		{"nothing", nil, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := GoArgs(tc.args...); !slices.Equal(got, tc.want) {
				t.Errorf("GoArgs(%q) = %q, want %q", tc.args, got, tc.want)
			}
		})
	}
}
