package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

//go:generate sh -c "go build -C ../../../.. -o _output/bin/informer-gen ./cmd/informer-gen && ../../../../_output/bin/informer-gen $INFORMER_GEN_VERIFY --walks-only --go-header-file ../../hack/boilerplate.go.txt ."

var (
	// GroupVersion is the group and version of this package's types.
	GroupVersion = schema.GroupVersion{Group: "apps.example.com", Version: "v1"}

	// SchemeBuilder adds this package's types to a scheme.
	SchemeBuilder = runtime.NewSchemeBuilder(addKnownTypes)

	// AddToScheme adds this package's types to a scheme.
	AddToScheme = SchemeBuilder.AddToScheme
)

// addKnownTypes adds Gadget and GadgetList to s.
func addKnownTypes(s *runtime.Scheme) error {
	s.AddKnownTypes(GroupVersion, &Gadget{}, &GadgetList{})
	metav1.AddToGroupVersion(s, GroupVersion)
	return nil
}
