package cluster

import (
	"context"
	"fmt"
	"time"

	authorizationv1 "k8s.io/api/authorization/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
)

// AddUser provisions a client-certificate user with the given name and
// groups and returns its client configuration. The user has no permission
// beyond what RBAC grants its name or groups (see GrantClusterRole).
func (c *Cluster) AddUser(name string, groups ...string) (*rest.Config, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	u, err := c.env.ControlPlane.AddUser(envtest.User{Name: name, Groups: groups}, &rest.Config{QPS: 1000, Burst: 2000})
	if err != nil {
		return nil, fmt.Errorf("cluster: add user %s: %w", name, err)
	}
	return rest.CopyConfig(u.Config()), nil
}

// GrantClusterRole creates a ClusterRole with rules and binds it to user
// across the cluster, then waits until the API server's authoriser allows
// the first verb of the first rule to user (RBAC is applied from the
// server's informers, so a grant is not effective at once).
func (c *Cluster) GrantClusterRole(ctx context.Context, user string, rules []rbacv1.PolicyRule) error {
	cs, err := kubernetes.NewForConfig(c.admin)
	if err != nil {
		return err
	}
	name := "informer-gen-e2e-" + user
	role := &rbacv1.ClusterRole{ObjectMeta: metav1.ObjectMeta{Name: name}, Rules: rules}
	if _, err := cs.RbacV1().ClusterRoles().Create(ctx, role, metav1.CreateOptions{}); err != nil {
		return fmt.Errorf("cluster: create ClusterRole %s: %w", name, err)
	}
	binding := &rbacv1.ClusterRoleBinding{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: name},
		Subjects:   []rbacv1.Subject{{APIGroup: rbacv1.GroupName, Kind: rbacv1.UserKind, Name: user}},
	}
	if _, err := cs.RbacV1().ClusterRoleBindings().Create(ctx, binding, metav1.CreateOptions{}); err != nil {
		return fmt.Errorf("cluster: create ClusterRoleBinding %s: %w", name, err)
	}
	if len(rules) == 0 || len(rules[0].Verbs) == 0 {
		return nil
	}
	r := rules[0]
	attrs := &authorizationv1.ResourceAttributes{Verb: r.Verbs[0]}
	if len(r.APIGroups) > 0 {
		attrs.Group = r.APIGroups[0]
	}
	if len(r.Resources) > 0 {
		attrs.Resource = r.Resources[0]
	}
	return wait.PollUntilContextTimeout(ctx, 50*time.Millisecond, 30*time.Second, true, func(ctx context.Context) (bool, error) {
		review, err := cs.AuthorizationV1().SubjectAccessReviews().Create(ctx, &authorizationv1.SubjectAccessReview{
			Spec: authorizationv1.SubjectAccessReviewSpec{User: user, ResourceAttributes: attrs},
		}, metav1.CreateOptions{})
		if err != nil {
			return false, err
		}
		return review.Status.Allowed, nil
	})
}
