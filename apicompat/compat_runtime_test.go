package apicompat_test

import (
	"testing"

	"github.com/informer-gen/informer-gen/apicompat"

	// The packages compared are loaded by import path from this module;
	// these imports keep them in go.mod.
	_ "github.com/informer-gen/informer-gen/runtime/cache"
	_ "k8s.io/client-go/tools/cache"
)

func TestReportRuntimeCache(t *testing.T) {
	r, err := apicompat.Compare(".", "k8s.io/client-go/tools/cache", "github.com/informer-gen/informer-gen/runtime/cache", apicompat.ClientGoRuntime())
	if err != nil {
		t.Fatal(err)
	}
	t.Log(r)
}
