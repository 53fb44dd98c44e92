// The courses' REST routes.
export const courseRoutes = [];
