// The courses' GraphQL types, queries and mutations.
