package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// +genclient
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// Widget is a namespaced example resource with a spec and a status
// subresource.
type Widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   WidgetSpec   `json:"spec,omitempty"`
	Status WidgetStatus `json:"status,omitempty"`
}

// WidgetSpec is the desired state of a Widget.
type WidgetSpec struct {
	// Size is a free-form size in arbitrary units.
	Size int32 `json:"size,omitempty"`
	// Color is a free-form colour name.
	Color string `json:"color,omitempty"`
	// Tags are free-form labels carried in the spec.
	Tags []string `json:"tags,omitempty"`
}

// WidgetStatus is the observed state of a Widget.
type WidgetStatus struct {
	// ObservedGeneration is the spec generation the status reflects.
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
	// Phase is a free-form phase name.
	Phase string `json:"phase,omitempty"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// WidgetList is a list of Widgets.
type WidgetList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`

	Items []Widget `json:"items"`
}

// +genclient
// +genclient:nonNamespaced
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// Gadget is a cluster-scoped example resource without a status.
type Gadget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec GadgetSpec `json:"spec,omitempty"`
}

// GadgetSpec is the desired state of a Gadget.
type GadgetSpec struct {
	// Model is a free-form model name.
	Model string `json:"model,omitempty"`
	// Replicas is a free-form count.
	Replicas int32 `json:"replicas,omitempty"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// GadgetList is a list of Gadgets.
type GadgetList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`

	Items []Gadget `json:"items"`
}
