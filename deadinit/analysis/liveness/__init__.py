"""Whether the reads that exist count: the fixpoint over the chain, reads outside it, values
handed to constructors, nested replacements, registered names, construction-site variants."""
