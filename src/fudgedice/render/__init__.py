"""Text and charts for people: the explanation of a roll, the odds table, printed
tables and plots. Renders results; never rolls or measures."""
