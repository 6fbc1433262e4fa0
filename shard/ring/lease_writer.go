package ring

import (
	"context"
	"time"

	coordinationv1 "k8s.io/api/coordination/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
)

// record writes the replica's Lease, renewed at now and recording rs,
// creating it if it is missing. A conflict (someone else wrote it) is
// retried once from a fresh read.
func (r *Replica) record(ctx context.Context, rs Ranges, now time.Time) error {
	leases := r.cfg.Client.Leases(r.cfg.Namespace)
	name := leaseName(r.cfg.Ring, r.cfg.Identity)
	for attempt := 0; ; attempt++ {
		if r.lease == nil {
			got, err := leases.Get(ctx, name, metav1.GetOptions{})
			switch {
			case apierrors.IsNotFound(err):
				created, err := leases.Create(ctx, r.leaseFor(&coordinationv1.Lease{}, rs, now), metav1.CreateOptions{})
				if err == nil {
					r.lease = created
				}
				return err
			case err != nil:
				return err
			}
			r.lease = got
		}
		updated, err := leases.Update(ctx, r.leaseFor(r.lease.DeepCopy(), rs, now), metav1.UpdateOptions{})
		if err == nil {
			r.lease = updated
			return nil
		}
		r.lease = nil
		if attempt > 0 || !(apierrors.IsConflict(err) || apierrors.IsNotFound(err)) {
			return err
		}
	}
}

// leaseFor fills l as the replica's Lease renewed at now, recording rs.
func (r *Replica) leaseFor(l *coordinationv1.Lease, rs Ranges, now time.Time) *coordinationv1.Lease {
	l.Name, l.Namespace = leaseName(r.cfg.Ring, r.cfg.Identity), r.cfg.Namespace
	if l.Labels == nil {
		l.Labels = map[string]string{}
	}
	if l.Annotations == nil {
		l.Annotations = map[string]string{}
	}
	l.Labels[RingLabel] = r.cfg.Ring
	l.Annotations[RangesAnnotation] = rs.String()
	renewed := metav1.NewMicroTime(now)
	if l.Spec.AcquireTime == nil {
		l.Spec.AcquireTime = &renewed
	}
	l.Spec.HolderIdentity = ptr.To(r.cfg.Identity)
	l.Spec.LeaseDurationSeconds = ptr.To(int32(r.cfg.LeaseDuration / time.Second))
	l.Spec.RenewTime = &renewed
	return l
}

// deleteLease deletes the replica's Lease, if the version last written
// is still the current one.
func (r *Replica) deleteLease(ctx context.Context) error {
	opts := metav1.DeleteOptions{}
	if r.lease != nil {
		opts.Preconditions = &metav1.Preconditions{UID: &r.lease.UID}
	}
	err := r.cfg.Client.Leases(r.cfg.Namespace).Delete(ctx, leaseName(r.cfg.Ring, r.cfg.Identity), opts)
	r.lease = nil
	if apierrors.IsNotFound(err) {
		return nil
	}
	return err
}
