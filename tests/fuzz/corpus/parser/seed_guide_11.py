x, z
