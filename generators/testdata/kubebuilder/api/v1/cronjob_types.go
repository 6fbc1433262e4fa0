package v1

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// ConcurrencyPolicy describes how the job will be handled.
// +kubebuilder:validation:Enum=Allow;Forbid;Replace
type ConcurrencyPolicy string

// CronJobSpec defines the desired state of CronJob.
type CronJobSpec struct {
	// +kubebuilder:validation:MinLength=0
	Schedule string `json:"schedule"`
	// +optional
	StartingDeadlineSeconds *int64              `json:"startingDeadlineSeconds,omitempty"`
	ConcurrencyPolicy       ConcurrencyPolicy   `json:"concurrencyPolicy,omitempty"`
	Suspend                 *bool               `json:"suspend,omitempty"`
	JobTemplate             JobTemplate         `json:"jobTemplate"`
	Limits                  corev1.ResourceList `json:"limits,omitempty"`
	Quota                   resource.Quantity   `json:"quota,omitempty"`
	Selector                map[string]string   `json:"selector,omitempty"`
}

// JobTemplate is the template of the jobs a CronJob runs.
type JobTemplate struct {
	Image   string          `json:"image"`
	Args    []string        `json:"args,omitempty"`
	Env     []corev1.EnvVar `json:"env,omitempty"`
	Volumes []Volume        `json:"volumes,omitempty"`
}

// Volume is a volume the job mounts.
type Volume struct {
	Name      string `json:"name"`
	MountPath string `json:"mountPath"`
}

// CronJobStatus defines the observed state of CronJob.
type CronJobStatus struct {
	Active           []corev1.ObjectReference `json:"active,omitempty"`
	LastScheduleTime *metav1.Time             `json:"lastScheduleTime,omitempty"`
	Conditions       []metav1.Condition       `json:"conditions,omitempty"`
}

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status

// CronJob is the Schema for the cronjobs API.
type CronJob struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   CronJobSpec   `json:"spec,omitempty"`
	Status CronJobStatus `json:"status,omitempty"`
}

// +kubebuilder:object:root=true

// CronJobList contains a list of CronJob.
type CronJobList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []CronJob `json:"items"`
}
