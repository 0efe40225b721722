"""Model providers behind one small interface; registered by name, imported lazily."""
