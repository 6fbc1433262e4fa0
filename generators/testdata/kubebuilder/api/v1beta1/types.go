package v1beta1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Common holds the metadata every object of the group has.
type Common struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
}

// +kubebuilder:object:root=true

// Schedule is an object whose ObjectMeta comes from an embedded struct.
type Schedule struct {
	Common `json:",inline"`

	Cron     string            `json:"cron"`
	Labels   map[string]string `json:"labels,omitempty"`
	Windows  []Window          `json:"windows,omitempty"`
	Disabled bool              `json:"disabled,omitempty"`
}

// Window is a time window.
type Window struct {
	Start, End string
}

// +kubebuilder:object:root=true

// ScheduleList contains a list of Schedule.
type ScheduleList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Schedule `json:"items"`
}

// Shift is an object with ObjectMeta and no kubebuilder marker.
type Shift struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Owner             string `json:"owner"`
}
