// The enrollments' REST routes.
export const enrollmentRoutes = [];
