// Enrollments and completions in the graph.
