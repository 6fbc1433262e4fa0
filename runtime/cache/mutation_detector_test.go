package cache

import (
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func TestMutationDetectorEnabledByEnvironment(t *testing.T) {
	for _, tt := range []struct {
		env  string
		want bool
	}{{"true", true}, {"false", false}, {"", false}} {
		t.Setenv(mutationDetectorEnv, tt.env)
		inf := NewSharedIndexInformer(newModelServer(), &metav1.PartialObjectMetadata{}, time.Minute, nil).(*sharedIndexInformer)
		if got := inf.detector != nil; got != tt.want {
			t.Errorf("%s=%q: detector enabled %v, want %v", mutationDetectorEnv, tt.env, got, tt.want)
		}
	}
}
