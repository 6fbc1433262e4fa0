package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// GroupName is the API group of the example CRDs.
const GroupName = "stable.example.com"

// SchemeGroupVersion is the group and version of the types in this package.
var SchemeGroupVersion = schema.GroupVersion{Group: GroupName, Version: "v1"}

// Kind returns the group-qualified kind for an unqualified kind name.
func Kind(kind string) schema.GroupKind {
	return SchemeGroupVersion.WithKind(kind).GroupKind()
}

// Resource returns the group-qualified resource for an unqualified resource
// name (e.g. "widgets").
func Resource(resource string) schema.GroupResource {
	return SchemeGroupVersion.WithResource(resource).GroupResource()
}

var (
	// SchemeBuilder collects the functions that register this package's
	// types into a scheme.
	SchemeBuilder = runtime.NewSchemeBuilder(addKnownTypes)
	// AddToScheme registers Widget, Gadget and their lists, plus the
	// group's meta/v1 types, into a scheme. It is safe to call on several
	// schemes; a scheme itself must not be mutated concurrently.
	AddToScheme = SchemeBuilder.AddToScheme
)

func addKnownTypes(scheme *runtime.Scheme) error {
	scheme.AddKnownTypes(SchemeGroupVersion,
		&Widget{},
		&WidgetList{},
		&Gadget{},
		&GadgetList{},
	)
	metav1.AddToGroupVersion(scheme, SchemeGroupVersion)
	return nil
}
