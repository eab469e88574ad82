print("verdicts")
