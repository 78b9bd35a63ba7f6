"""Item pipelines: one component per module, in the order set by ITEM_PIPELINES."""
