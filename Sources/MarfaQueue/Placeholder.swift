// MarfaQueue
