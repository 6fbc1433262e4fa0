package apicompat_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/informer-gen/informer-gen/apicompat"

	// The packages compared are loaded by import path from this module;
	// these imports keep them in go.mod.
	_ "github.com/informer-gen/informer-gen/dynamic/dynamicinformer"
	_ "github.com/informer-gen/informer-gen/dynamic/dynamiclister"
	_ "github.com/informer-gen/informer-gen/dynamic/metadatainformer"
	_ "github.com/informer-gen/informer-gen/dynamic/metadatalister"
	_ "k8s.io/client-go/dynamic/dynamicinformer"
	_ "k8s.io/client-go/dynamic/dynamiclister"
	_ "k8s.io/client-go/informers"
	_ "k8s.io/client-go/metadata/metadatainformer"
	_ "k8s.io/client-go/metadata/metadatalister"
)

const (
	clientGoInformers       = "k8s.io/client-go/informers"
	ourDynamicInformer      = "github.com/informer-gen/informer-gen/dynamic/dynamicinformer"
	clientGoDynamicInformer = "k8s.io/client-go/dynamic/dynamicinformer"
)

// dynamicPackages are the packages of the dynamic module and the
// client-go packages they stand in for: a port rewrites these import
// paths.
var dynamicPackages = map[string]string{
	clientGoDynamicInformer:                      ourDynamicInformer,
	"k8s.io/client-go/dynamic/dynamiclister":     "github.com/informer-gen/informer-gen/dynamic/dynamiclister",
	"k8s.io/client-go/metadata/metadatainformer": "github.com/informer-gen/informer-gen/dynamic/metadatainformer",
	"k8s.io/client-go/metadata/metadatalister":   "github.com/informer-gen/informer-gen/dynamic/metadatalister",
}

// dynamicMapping maps client-go's runtime, the four packages, and
// client-go's informers package (for GenericInformer, which ForResource
// returns) to ours.
func dynamicMapping() apicompat.Mapping {
	m := apicompat.ClientGoRuntime()
	for up, ours := range dynamicPackages {
		m[up] = ours
	}
	m[clientGoInformers] = ourDynamicInformer
	return m
}

// Every exported name of client-go v0.37.2's dynamicinformer,
// dynamiclister, metadatainformer and metadatalister is declared by the
// dynamic module's package of the same name, compatibly, and its
// interfaces have no methods client-go's lack (which would break code
// implementing them).
func TestDynamicModuleIsSourceCompatibleWithClientGo(t *testing.T) {
	m := dynamicMapping()
	for up, ours := range dynamicPackages {
		r, err := apicompat.Compare(".", up, ours, m)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %d shared, %d missing, %d incompatible names", up, len(r.Shared), len(r.Missing), len(r.IncompatibleNames()))
		if len(r.Shared) == 0 {
			t.Errorf("%s shares no name with %s", ours, up)
		}
		for _, name := range r.Missing {
			t.Errorf("%s.%s is missing from %s", up, name, ours)
		}
		for _, f := range r.Incompatible {
			t.Errorf("%s: incompatible %s", ours, f)
		}
		for _, f := range r.ExtraMethods {
			t.Errorf("%s: extra method %s", ours, f)
		}
	}
}

// ForResource's GenericInformer has the methods of client-go's
// informers.GenericInformer on runtime/cache's types, which the mapping
// of client-go's informers package to dynamicinformer relies on.
func TestDynamicGenericInformerIsClientGosGenericInformer(t *testing.T) {
	r, err := apicompat.Compare(".", clientGoInformers, ourDynamicInformer, dynamicMapping())
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(r.Shared, "GenericInformer") || slices.Contains(r.IncompatibleNames(), "GenericInformer") {
		t.Errorf("GenericInformer is missing from %s or incompatible: %v", ourDynamicInformer, r.Incompatible)
	}
	for _, f := range r.ExtraMethods {
		if strings.HasPrefix(f.Name, "GenericInformer") {
			t.Errorf("extra method %s", f)
		}
	}
}
