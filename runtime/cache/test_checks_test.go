package cache

import "testing"

// INFORMER_GEN_TEST_CHECKS decides the test checks when set; unset, they
// are on in a test binary (this one).
func TestTestChecksFollowTheirSwitch(t *testing.T) {
	for _, tt := range []struct {
		env  string
		want bool
	}{{"", true}, {"true", true}, {"false", false}, {"not-a-bool", true}} {
		t.Run("env="+tt.env, func(t *testing.T) {
			t.Setenv(testChecksEnv, tt.env)
			if got := testChecks(); got != tt.want {
				t.Errorf("testChecks() = %v, want %v", got, tt.want)
			}
		})
	}
}

// An informer made with the test checks off neither checks its handlers
// nor runs the detector for compaction; with them on it does both.
func TestInformerReadsTheTestChecksAtConstruction(t *testing.T) {
	for _, on := range []bool{true, false} {
		t.Run(map[bool]string{true: "on", false: "off"}[on], func(t *testing.T) {
			t.Setenv(mutationDetectorEnv, "")
			if on {
				t.Setenv(testChecksEnv, "true")
			} else {
				t.Setenv(testChecksEnv, "false")
			}
			inf := NewSharedIndexInformerWithOptions(newModelServer(), testObject("", "", ""), SharedIndexInformerOptions{Compact: true}).(*sharedIndexInformer)
			if inf.testChecks != on || (inf.detector != nil) != on {
				t.Errorf("testChecks %v, detector %v; want both %v", inf.testChecks, inf.detector != nil, on)
			}
		})
	}
}
