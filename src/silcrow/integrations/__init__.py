"""silcrow inside other agents: each integration keeps its logic here, so upgrading silcrow
upgrades the small shims it installs into those agents."""
