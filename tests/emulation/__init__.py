"""Site emulation: stand-ins for what a site has, to run rendered job scripts here (tests only)."""
